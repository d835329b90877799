/*
 * Descriptors, configs and channels of acl_dvpp.h: every setter/getter
 * round trip, NULL handling (getters answer 0 / NULL, setters
 * ACL_ERROR_INVALID_PARAM with a message), value ranges, channel life cycle.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

static void expect_msg(const char *needle)
{
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    assert_non_null(strstr(m, needle));
}

static void pic_desc(void **state)
{
    (void)state;
    acldvppPicDesc *d = acldvppCreatePicDesc();
    assert_non_null(d);
    /* a new description is zeroed */
    assert_null(acldvppGetPicDescData(d));
    assert_int_equal(acldvppGetPicDescFormat(d), PIXEL_FORMAT_YUV_400);
    assert_int_equal(acldvppGetPicDescWidth(d), 0);
    int buf = 0;
    assert_int_equal(acldvppSetPicDescData(d, &buf), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescSize(d, 1234), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescFormat(d, PIXEL_FORMAT_YVU_SEMIPLANAR_420), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescWidth(d, 33), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescHeight(d, 17), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescWidthStride(d, 48), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescHeightStride(d, 18), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescRetCode(d, 7), ACL_SUCCESS);
    assert_ptr_equal(acldvppGetPicDescData(d), &buf);
    assert_int_equal(acldvppGetPicDescSize(d), 1234);
    assert_int_equal(acldvppGetPicDescFormat(d), PIXEL_FORMAT_YVU_SEMIPLANAR_420);
    assert_int_equal(acldvppGetPicDescWidth(d), 33);
    assert_int_equal(acldvppGetPicDescHeight(d), 17);
    assert_int_equal(acldvppGetPicDescWidthStride(d), 48);
    assert_int_equal(acldvppGetPicDescHeightStride(d), 18);
    assert_int_equal(acldvppGetPicDescRetCode(d), 7);
    assert_int_equal(acldvppDestroyPicDesc(d), ACL_SUCCESS);

    assert_int_equal(acldvppSetPicDescWidth(NULL, 1), ACL_ERROR_INVALID_PARAM);
    expect_msg("picDesc");
    assert_int_equal(acldvppGetPicDescWidth(NULL), 0);
    assert_int_equal(acldvppGetPicDescFormat(NULL), PIXEL_FORMAT_YUV_400);
    assert_null(acldvppGetPicDescData(NULL));
    assert_int_equal(acldvppDestroyPicDesc(NULL), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
}

static void batch_desc(void **state)
{
    (void)state;
    assert_null(acldvppCreateBatchPicDesc(0));
    expect_msg("batchSize");
    assert_null(acldvppCreateBatchPicDesc(257));
    (void)aclGetRecentErrMsg();
    acldvppBatchPicDesc *b = acldvppCreateBatchPicDesc(3);
    assert_non_null(b);
    acldvppPicDesc *p0 = acldvppGetPicDesc(b, 0);
    acldvppPicDesc *p2 = acldvppGetPicDesc(b, 2);
    assert_non_null(p0);
    assert_non_null(p2);
    assert_ptr_not_equal(p0, p2);
    assert_int_equal(acldvppSetPicDescWidth(p2, 64), ACL_SUCCESS);
    assert_int_equal(acldvppGetPicDescWidth(acldvppGetPicDesc(b, 2)), 64);
    assert_null(acldvppGetPicDesc(b, 3));
    expect_msg("index");
    assert_null(acldvppGetPicDesc(NULL, 0));
    (void)aclGetRecentErrMsg();
    assert_int_equal(acldvppDestroyBatchPicDesc(b), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyBatchPicDesc(NULL), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
}

static void roi_resize_jpege(void **state)
{
    (void)state;
    acldvppRoiConfig *r = acldvppCreateRoiConfig(2, 101, 4, 51);
    assert_non_null(r);
    assert_int_equal(acldvppSetRoiConfigLeft(r, 10), ACL_SUCCESS);
    assert_int_equal(acldvppSetRoiConfigRight(r, 11), ACL_SUCCESS);
    assert_int_equal(acldvppSetRoiConfigTop(r, 12), ACL_SUCCESS);
    assert_int_equal(acldvppSetRoiConfigBottom(r, 13), ACL_SUCCESS);
    assert_int_equal(acldvppSetRoiConfig(r, 0, 1, 2, 3), ACL_SUCCESS);
    assert_int_equal(acldvppSetRoiConfig(NULL, 0, 1, 2, 3), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(acldvppSetRoiConfigLeft(NULL, 0), ACL_ERROR_INVALID_PARAM);
    expect_msg("config");
    assert_int_equal(acldvppDestroyRoiConfig(r), ACL_SUCCESS);

    acldvppResizeConfig *rc = acldvppCreateResizeConfig();
    assert_non_null(rc);
    assert_int_equal(acldvppGetResizeConfigInterpolation(rc), 0);
    assert_int_equal(acldvppSetResizeConfigInterpolation(rc, 2), ACL_SUCCESS);
    assert_int_equal(acldvppGetResizeConfigInterpolation(rc), 2);
    assert_int_equal(acldvppSetResizeConfigInterpolation(rc, 6), ACL_ERROR_INVALID_PARAM);
    expect_msg("interpolation");
    assert_int_equal(acldvppGetResizeConfigInterpolation(rc), 2);
    assert_int_equal(acldvppGetResizeConfigInterpolation(NULL), 0);
    (void)aclGetRecentErrMsg();
    assert_int_equal(acldvppDestroyResizeConfig(rc), ACL_SUCCESS);

    acldvppJpegeConfig *jc = acldvppCreateJpegeConfig();
    assert_non_null(jc);
    assert_int_equal(acldvppSetJpegeConfigLevel(jc, 55), ACL_SUCCESS);
    assert_int_equal(acldvppGetJpegeConfigLevel(jc), 55);
    assert_int_equal(acldvppSetJpegeConfigLevel(jc, 101), ACL_ERROR_INVALID_PARAM);
    expect_msg("level");
    assert_int_equal(acldvppGetJpegeConfigLevel(jc), 55);
    assert_int_equal(acldvppDestroyJpegeConfig(jc), ACL_SUCCESS);
}

static void border_lut_hist(void **state)
{
    (void)state;
    acldvppBorderConfig *b = acldvppCreateBorderConfig();
    assert_non_null(b);
    assert_int_equal(acldvppSetBorderConfigBorderType(b, BORDER_REFLECT_101), ACL_SUCCESS);
    assert_int_equal(acldvppGetBorderConfigBorderType(b), BORDER_REFLECT_101);
    assert_int_equal(acldvppSetBorderConfigBorderType(b, (acldvppBorderType)4), ACL_ERROR_INVALID_PARAM);
    expect_msg("borderType");
    assert_int_equal(acldvppSetBorderConfigTop(b, 1), ACL_SUCCESS);
    assert_int_equal(acldvppSetBorderConfigBottom(b, 2), ACL_SUCCESS);
    assert_int_equal(acldvppSetBorderConfigLeft(b, 3), ACL_SUCCESS);
    assert_int_equal(acldvppSetBorderConfigRight(b, 4), ACL_SUCCESS);
    assert_int_equal(acldvppGetBorderConfigTop(b), 1);
    assert_int_equal(acldvppGetBorderConfigBottom(b), 2);
    assert_int_equal(acldvppGetBorderConfigLeft(b), 3);
    assert_int_equal(acldvppGetBorderConfigRight(b), 4);
    assert_int_equal(acldvppSetBorderConfigValue(b, 2, 200.5), ACL_SUCCESS);
    assert_true(acldvppGetBorderConfigValue(b, 2) == 200.5);
    assert_int_equal(acldvppSetBorderConfigValue(b, 4, 1.0), ACL_ERROR_INVALID_PARAM);
    expect_msg("index");
    assert_int_equal(acldvppDestroyBorderConfig(b), ACL_SUCCESS);

    acldvppLutMap *m = acldvppCreateLutMap();
    assert_non_null(m);
    assert_int_equal(acldvppGetLutMapDims(m), 3);
    uint8_t *tab = NULL;
    uint32_t len = 0;
    assert_int_equal(acldvppGetLutMapData(m, 1, &tab, &len), ACL_SUCCESS);
    assert_int_equal(len, 256);
    assert_int_equal(tab[77], 77); /* identity until filled */
    assert_int_equal(acldvppGetLutMapData(m, 3, &tab, &len), ACL_ERROR_INVALID_PARAM);
    expect_msg("dim");
    assert_int_equal(acldvppDestroyLutMap(m), ACL_SUCCESS);

    acldvppHist *h = acldvppCreateHist();
    assert_non_null(h);
    assert_int_equal(acldvppGetHistDims(h), 3);
    uint32_t *bins = NULL;
    uint16_t blen = 0;
    assert_int_equal(acldvppGetHistData(h, 0, &bins, &blen), ACL_SUCCESS);
    assert_int_equal(blen, 256);
    bins[5] = 9;
    assert_int_equal(acldvppClearHist(h), ACL_SUCCESS);
    assert_int_equal(bins[5], 0);
    assert_int_equal(acldvppGetHistRetCode(h), 0);
    assert_int_equal(acldvppGetHistData(h, 3, &bins, &blen), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    assert_int_equal(acldvppDestroyHist(h), ACL_SUCCESS);
}

static void stream_desc(void **state)
{
    (void)state;
    acldvppStreamDesc *s = acldvppCreateStreamDesc();
    assert_non_null(s);
    int x = 0;
    assert_int_equal(acldvppSetStreamDescData(s, &x), ACL_SUCCESS);
    assert_int_equal(acldvppSetStreamDescSize(s, 99), ACL_SUCCESS);
    assert_int_equal(acldvppSetStreamDescFormat(s, H264_HIGH_LEVEL), ACL_SUCCESS);
    assert_int_equal(acldvppSetStreamDescTimestamp(s, 1ull << 40), ACL_SUCCESS);
    assert_int_equal(acldvppSetStreamDescRetCode(s, 3), ACL_SUCCESS);
    assert_int_equal(acldvppSetStreamDescEos(s, 1), ACL_SUCCESS);
    assert_ptr_equal(acldvppGetStreamDescData(s), &x);
    assert_int_equal(acldvppGetStreamDescSize(s), 99);
    assert_int_equal(acldvppGetStreamDescFormat(s), H264_HIGH_LEVEL);
    assert_true(acldvppGetStreamDescTimestamp(s) == (1ull << 40));
    assert_int_equal(acldvppGetStreamDescRetCode(s), 3);
    assert_int_equal(acldvppGetStreamDescEos(s), 1);
    assert_int_equal(acldvppSetStreamDescEos(NULL, 1), ACL_ERROR_INVALID_PARAM);
    expect_msg("streamDesc");
    assert_int_equal(acldvppGetStreamDescSize(NULL), 0);
    (void)aclGetRecentErrMsg();
    assert_int_equal(acldvppDestroyStreamDesc(s), ACL_SUCCESS);
}

static void channel(void **state)
{
    (void)state;
    acldvppChannelDesc *c = acldvppCreateChannelDesc();
    assert_non_null(c);
    uint32_t csc = 99;
    size_t ret = 0;
    assert_int_equal(acldvppGetChannelDescParam(c, ACL_DVPP_CSC_MATRIX_UINT32, sizeof(csc), &ret, &csc), ACL_SUCCESS);
    assert_int_equal(ret, sizeof(uint32_t));
    assert_int_equal(csc, ACL_DVPP_CSC_MATRIX_BT601_WIDE);
    csc = ACL_DVPP_CSC_MATRIX_BT709_NARROW;
    assert_int_equal(acldvppSetChannelDescParam(c, ACL_DVPP_CSC_MATRIX_UINT32, sizeof(csc), &csc), ACL_SUCCESS);
    csc = 6;
    assert_int_equal(acldvppSetChannelDescParam(c, ACL_DVPP_CSC_MATRIX_UINT32, sizeof(csc), &csc),
                     ACL_ERROR_INVALID_PARAM);
    expect_msg("csc");
    assert_int_equal(acldvppSetChannelDescParam(c, ACL_DVPP_CSC_MATRIX_UINT32, 8, &csc), ACL_ERROR_INVALID_PARAM);
    expect_msg("length");
    assert_int_equal(acldvppGetChannelDescParam(c, ACL_DVPP_CSC_MATRIX_UINT32, sizeof(csc), &ret, &csc), ACL_SUCCESS);
    assert_int_equal(csc, ACL_DVPP_CSC_MATRIX_BT709_NARROW);
    uint64_t id = 0;
    assert_int_equal(acldvppSetChannelDescParam(c, ACL_DVPP_CHANNEL_ID_UINT64, sizeof(id), &id),
                     ACL_ERROR_INVALID_PARAM);
    expect_msg("channel id");
    assert_int_equal(acldvppGetChannelDescParam(c, ACL_DVPP_CHANNEL_ID_UINT64, 4, &ret, &id), ACL_ERROR_INVALID_PARAM);
    expect_msg("length");

    assert_int_equal(acldvppSetChannelDescMode(c, 0), ACL_ERROR_INVALID_PARAM);
    expect_msg("mode");
    assert_int_equal(acldvppSetChannelDescMode(c, 16), ACL_ERROR_INVALID_PARAM);
    (void)aclGetRecentErrMsg();
    assert_int_equal(acldvppSetChannelDescMode(c, DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD), ACL_SUCCESS);
    uint32_t mode = 0;
    assert_int_equal(acldvppGetChannelDescParam(c, ACL_DVPP_MODE_UINT32, sizeof(mode), &ret, &mode), ACL_SUCCESS);
    assert_int_equal(mode, DVPP_CHNMODE_VPC | DVPP_CHNMODE_JPEGD);

    assert_int_equal(acldvppDestroyChannel(c), ACL_ERROR_INVALID_PARAM);
    expect_msg("acldvppCreateChannel");
    assert_int_equal(acldvppCreateChannel(c), ACL_SUCCESS);
    const uint64_t first = acldvppGetChannelDescChannelId(c);
    assert_int_equal(acldvppCreateChannel(c), ACL_ERROR_INVALID_PARAM);
    expect_msg("already");
    assert_int_equal(acldvppSetChannelDescMode(c, DVPP_CHNMODE_VPC), ACL_ERROR_INVALID_PARAM);
    expect_msg("cannot change");
    assert_int_equal(acldvppGetChannelDescParam(c, ACL_DVPP_CHANNEL_ID_UINT64, sizeof(id), &ret, &id), ACL_SUCCESS);
    assert_int_equal(ret, sizeof(uint64_t));
    assert_true(id == first);

    acldvppChannelDesc *c2 = acldvppCreateChannelDesc();
    assert_int_equal(acldvppCreateChannel(c2), ACL_SUCCESS);
    assert_true(acldvppGetChannelDescChannelId(c2) != first);
    assert_int_equal(acldvppDestroyChannel(c2), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyChannelDesc(c2), ACL_SUCCESS);

    assert_int_equal(acldvppDestroyChannel(c), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyChannelDesc(c), ACL_SUCCESS);
    assert_int_equal(acldvppCreateChannel(NULL), ACL_ERROR_INVALID_PARAM);
    assert_int_equal(acldvppGetChannelDescChannelId(NULL), 0);
    (void)aclGetRecentErrMsg();
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pic_desc),         cmocka_unit_test(batch_desc),  cmocka_unit_test(roi_resize_jpege),
        cmocka_unit_test(border_lut_hist), cmocka_unit_test(stream_desc), cmocka_unit_test(channel),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * FFmpeg's codec library is loaded on the first video channel, not with libascendcl (src/dvpp/av_lib.h,
 * docs/dvpp.md "Video codecs loaded on first use"). This program links libascendcl alone; ctest runs it three
 * times (OA_EXPECT_AV): "loaded": no libavcodec in the process after aclInit and aclrtSetDevice, one after a
 * VDEC channel is created; "missing" (OPENACL_AVCODEC_LIB names no file) and "foreign" (a library that is not
 * libavcodec): VDEC and VENC channels are refused with ACL_ERROR_API_NOT_SUPPORT and the reason in
 * aclGetRecentErrMsg, and a second attempt says the same.
 */
#include "dvpp_test_util.h"
#include "support/acl_fixture.h"
#include "support/log_capture.h"

static atomic_int g_stop;

static void on_frame(acldvppStreamDesc *input, acldvppPicDesc *output, void *user)
{
    (void)input, (void)output, (void)user;
}

static void on_packet(acldvppPicDesc *input, acldvppStreamDesc *output, void *user)
{
    (void)input, (void)output, (void)user;
}

/* Whether a mapping of the process names a file containing part. */
static bool mapped(const char *part)
{
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    return oa_lines_contain(f, part);
}

static aclvdecChannelDesc *vdec_desc(pthread_t th)
{
    aclvdecChannelDesc *ch = aclvdecCreateChannelDesc();
    assert_non_null(ch);
    assert_int_equal(aclvdecSetChannelDescThreadId(ch, (uint64_t)th), ACL_SUCCESS);
    assert_int_equal(aclvdecSetChannelDescCallback(ch, on_frame), ACL_SUCCESS);
    assert_int_equal(aclvdecSetChannelDescEnType(ch, H264_HIGH_LEVEL), ACL_SUCCESS);
    return ch;
}

static aclvencChannelDesc *venc_desc(pthread_t th)
{
    aclvencChannelDesc *ch = aclvencCreateChannelDesc();
    assert_non_null(ch);
    assert_int_equal(aclvencSetChannelDescThreadId(ch, (uint64_t)th), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescCallback(ch, on_packet), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescEnType(ch, H264_MAIN_LEVEL), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescPicFormat(ch, PIXEL_FORMAT_YUV_SEMIPLANAR_420), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescPicWidth(ch, 128), ACL_SUCCESS);
    assert_int_equal(aclvencSetChannelDescPicHeight(ch, 128), ACL_SUCCESS);
    return ch;
}

static void loaded_on_first_video_channel(void **state)
{
    (void)state;
    assert_false(mapped("libavcodec"));
    assert_false(mapped("libavutil"));
    pthread_t th;
    atomic_store(&g_stop, 0);
    assert_int_equal(pthread_create(&th, NULL, dvpp_report_thread, &g_stop), 0);
    aclvdecChannelDesc *ch = vdec_desc(th);
    assert_int_equal(aclvdecCreateChannel(ch), ACL_SUCCESS);
    assert_true(mapped("libavcodec.so."));
    assert_true(mapped("libavutil.so."));
    dvpp_vdec_close(ch, th, &g_stop);
}

static void refused_without_the_library(void **state)
{
    (void)state;
    const char *why = getenv("OA_EXPECT_AV_MSG"); /* what the message must say */
    assert_non_null(why);
    pthread_t th;
    atomic_store(&g_stop, 0);
    assert_int_equal(pthread_create(&th, NULL, dvpp_report_thread, &g_stop), 0);
    for (int attempt = 0; attempt < 2; attempt++) { /* the first failure is kept, and reported again */
        aclvdecChannelDesc *d = vdec_desc(th);
        assert_int_equal(aclvdecCreateChannel(d), ACL_ERROR_API_NOT_SUPPORT);
        const char *msg = aclGetRecentErrMsg();
        assert_non_null(msg);
        if (strstr(msg, why) == NULL || strstr(msg, "video channels are unavailable") == NULL) {
            fail_msg("VDEC message: %s", msg);
        }
        assert_int_equal(aclvdecDestroyChannelDesc(d), ACL_SUCCESS);
        aclvencChannelDesc *e = venc_desc(th);
        assert_int_equal(aclvencCreateChannel(e), ACL_ERROR_API_NOT_SUPPORT);
        msg = aclGetRecentErrMsg();
        assert_non_null(msg);
        if (strstr(msg, why) == NULL) {
            fail_msg("VENC message: %s", msg);
        }
        assert_int_equal(aclvencDestroyChannelDesc(e), ACL_SUCCESS);
    }
    atomic_store(&g_stop, 1);
    pthread_join(th, NULL);
}


int main(void)
{
    const char *expect = getenv("OA_EXPECT_AV");
    if (expect != NULL && strcmp(expect, "loaded") != 0) {
        const struct CMUnitTest tests[] = {cmocka_unit_test(refused_without_the_library)};
        return cmocka_run_group_tests(tests, oa_acl_device_setup, oa_acl_device_teardown);
    }
    const struct CMUnitTest tests[] = {cmocka_unit_test(loaded_on_first_video_channel)};
    return cmocka_run_group_tests(tests, oa_acl_device_setup, oa_acl_device_teardown);
}

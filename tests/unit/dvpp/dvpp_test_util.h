/*
 * Helpers of the DVPP image tests: reading the reference files written by
 * gen_dvpp_refs.py (directory in OA_DVPP_REFS), device pictures with a
 * guard area after the bytes the format needs, and a device / stream /
 * channel fixture.
 */
#ifndef OA_TESTS_DVPP_TEST_UTIL_H
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#define OA_TESTS_DVPP_TEST_UTIL_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

#define GUARD 64u
#define GUARD_BYTE 0xA5

typedef struct tfix {
    aclrtStream stream;
    acldvppChannelDesc *ch;
} tfix;

static inline uint32_t align_up(uint32_t v, uint32_t a)
{
    return (v + a - 1) / a * a;
}

static inline void *read_ref(const char *name, size_t *len)
{
    const char *dir = getenv("OA_DVPP_REFS");
    assert_non_null(dir);
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fail_msg("missing reference %s", path);
    }
    fseek(f, 0, SEEK_END);
    const long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    void *p = malloc((size_t)n + 1);
    assert_non_null(p);
    assert_int_equal(fread(p, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    *len = (size_t)n;
    return p;
}

/* Device copy of host bytes. */
static inline void *dev_copy(const void *src, size_t n)
{
    void *d = NULL;
    assert_int_equal(acldvppMalloc(&d, n), ACL_SUCCESS);
    memcpy(d, src, n);
    return d;
}

/* Bytes a ws x hs picture of fmt needs (the formulas of docs/dvpp.md). */
static inline size_t pic_bytes(acldvppPixelFormat fmt, uint32_t ws, uint32_t hs)
{
    switch (fmt) {
    case PIXEL_FORMAT_YUV_SEMIPLANAR_420:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_420:
        return (size_t)ws * hs * 3 / 2;
    case PIXEL_FORMAT_YUV_SEMIPLANAR_422:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_422:
    case PIXEL_FORMAT_YUV_SEMIPLANAR_440:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_440:
        return (size_t)ws * hs * 2;
    case PIXEL_FORMAT_YUV_SEMIPLANAR_444:
    case PIXEL_FORMAT_YVU_SEMIPLANAR_444:
        return (size_t)ws * hs * 3;
    default:
        return (size_t)ws * hs;
    }
}

/* A picture description over a new device buffer: the needed bytes, then GUARD guard bytes (counted out of size). */
static inline acldvppPicDesc *make_pic(acldvppPixelFormat fmt, uint32_t w, uint32_t h, uint32_t ws, uint32_t hs,
                                       uint8_t fill)
{
    const size_t n = pic_bytes(fmt, ws, hs);
    uint8_t *d = NULL;
    assert_int_equal(acldvppMalloc((void **)&d, n + GUARD), ACL_SUCCESS);
    memset(d, fill, n);
    memset(d + n, GUARD_BYTE, GUARD);
    acldvppPicDesc *p = acldvppCreatePicDesc();
    assert_non_null(p);
    assert_int_equal(acldvppSetPicDescData(p, d), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescSize(p, (uint32_t)n), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescFormat(p, fmt), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescWidth(p, w), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescHeight(p, h), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescWidthStride(p, ws), ACL_SUCCESS);
    assert_int_equal(acldvppSetPicDescHeightStride(p, hs), ACL_SUCCESS);
    return p;
}

static inline void check_guard(const acldvppPicDesc *p)
{
    const uint8_t *d = acldvppGetPicDescData(p);
    const uint32_t n = acldvppGetPicDescSize(p);
    for (uint32_t i = 0; i < GUARD; ++i) {
        if (d[n + i] != GUARD_BYTE) {
            fail_msg("byte %u after the %u-byte picture was overwritten", i, n);
        }
    }
}

static inline void free_pic(acldvppPicDesc *p)
{
    assert_int_equal(acldvppFree(acldvppGetPicDescData(p)), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyPicDesc(p), ACL_SUCCESS);
}

static inline int fix_setup(void **state)
{
    tfix *f = calloc(1, sizeof(*f));
    assert_int_equal(aclrtSetDevice(0), ACL_SUCCESS);
    assert_int_equal(aclrtCreateStream(&f->stream), ACL_SUCCESS);
    f->ch = acldvppCreateChannelDesc();
    assert_int_equal(acldvppCreateChannel(f->ch), ACL_SUCCESS);
    *state = f;
    return 0;
}

static inline int fix_teardown(void **state)
{
    tfix *f = *state;
    assert_int_equal(acldvppDestroyChannel(f->ch), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyChannelDesc(f->ch), ACL_SUCCESS);
    assert_int_equal(aclrtDestroyStream(f->stream), ACL_SUCCESS);
    assert_int_equal(aclrtResetDevice(0), ACL_SUCCESS);
    free(f);
    (void)aclGetRecentErrMsg();
    return 0;
}

static inline void expect_msg(const char *needle)
{
    const char *m = aclGetRecentErrMsg();
    assert_non_null(m);
    if (strstr(m, needle) == NULL) {
        fail_msg("message \"%s\" does not mention \"%s\"", m, needle);
    }
}

/* The application's report thread of the video channel tests: serves their callbacks (aclrtProcessReport) until
 * the atomic_int at stop is set. */
static inline void *dvpp_report_thread(void *stop)
{
    while (!atomic_load((atomic_int *)stop)) {
        (void)aclrtProcessReport(50);
    }
    return NULL;
}

/* Ends ch's stream (every callback has run when the send returns), destroys ch and its description, then stops
 * its report thread th (started with dvpp_report_thread(stop)). */
static inline void dvpp_vdec_close(aclvdecChannelDesc *ch, pthread_t th, atomic_int *stop)
{
    acldvppStreamDesc *eos = acldvppCreateStreamDesc();
    assert_int_equal(acldvppSetStreamDescEos(eos, 1), ACL_SUCCESS);
    assert_int_equal(aclvdecSendFrame(ch, eos, NULL, NULL, NULL), ACL_SUCCESS);
    assert_int_equal(acldvppDestroyStreamDesc(eos), ACL_SUCCESS);
    assert_int_equal(aclvdecDestroyChannel(ch), ACL_SUCCESS);
    assert_int_equal(aclvdecDestroyChannelDesc(ch), ACL_SUCCESS);
    atomic_store(stop, 1);
    pthread_join(th, NULL);
}

#endif /* OA_TESTS_DVPP_TEST_UTIL_H */

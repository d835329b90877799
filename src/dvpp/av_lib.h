/*
 * FFmpeg's codec libraries (libavcodec and its libavutil) for VDEC and VENC, loaded when the first channel is
 * created rather than when the application starts: linked directly, they brought about 95 more shared libraries
 * into every process that loads libascendcl (X11, cairo, the codecs' own encoders...), 16 MiB of resident pages
 * and 11 ms of start-up, whether it ever touched a video or not (docs/dvpp.md "Video codecs loaded on first use").
 * The functions are called through the table below, typed from FFmpeg's own headers (the build's version).
 */
#ifndef OA_DVPP_AV_LIB_H
#define OA_DVPP_AV_LIB_H

#include <libavcodec/avcodec.h>
#include <libavutil/dict.h>
#include <libavutil/frame.h>
#include <libavutil/log.h>

#include "base/error.h"

/* Every FFmpeg function vdec.c and venc.c call. */
#define OA_AV_FUNCTIONS(X)                                                                                           \
    X(avcodec_version)                                                                                               \
    X(avutil_version)                                                                                                \
    X(avcodec_find_decoder)                                                                                          \
    X(avcodec_find_encoder)                                                                                          \
    X(avcodec_find_encoder_by_name)                                                                                  \
    X(avcodec_alloc_context3)                                                                                        \
    X(avcodec_free_context)                                                                                          \
    X(avcodec_open2)                                                                                                 \
    X(avcodec_send_packet)                                                                                           \
    X(avcodec_receive_frame)                                                                                         \
    X(avcodec_send_frame)                                                                                            \
    X(avcodec_receive_packet)                                                                                        \
    X(avcodec_flush_buffers)                                                                                         \
    X(avcodec_default_get_buffer2)                                                                                   \
    X(av_packet_alloc)                                                                                               \
    X(av_packet_free)                                                                                                \
    X(av_packet_unref)                                                                                               \
    X(av_new_packet)                                                                                                 \
    X(av_frame_alloc)                                                                                                \
    X(av_frame_free)                                                                                                 \
    X(av_frame_unref)                                                                                                \
    X(av_frame_get_buffer)                                                                                           \
    X(av_frame_make_writable)                                                                                        \
    X(av_dict_set)                                                                                                   \
    X(av_dict_free)                                                                                                  \
    X(av_log_set_callback)                                                                                           \
    X(av_log_default_callback)

#define OA_AV_FIELD(name) __typeof__(&name) name;
typedef struct oa_av_lib {
    OA_AV_FUNCTIONS(OA_AV_FIELD)
} oa_av_lib;
#undef OA_AV_FIELD

/*
 * Loads the libraries once per process (libavcodec.so.<major of the build's headers>, or OPENACL_AVCODEC_LIB: a
 * path to one of the same major version) and resolves the table. OA_E_NOT_SUPPORTED, with the reason in the
 * message, when they are missing, of another major version or lack a function: video channels cannot be created,
 * everything else works.
 */
oa_status oa_av_lib_load(void);

/* The table, once oa_av_lib_load succeeded (a channel exists); NULL before. */
const oa_av_lib *oa_av(void);

#endif /* OA_DVPP_AV_LIB_H */

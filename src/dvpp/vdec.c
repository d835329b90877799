/*
 * VDEC channels over FFmpeg's libavcodec (H.264 / H.265 Annex-B, one
 * complete frame per aclvdecSendFrame). A channel owns a stream whose
 * callbacks go to the application's report thread (aclrtSubscribeReport
 * with the channel's thread id, served by aclrtProcessReport). Each send
 * queues a decode task and a blocking callback task on that stream. Packets
 * carry their send number as timestamp, so every decoded frame is written
 * into the output picture of the send that produced it, whatever the
 * reordering; the callback task reports every send whose frame is ready.
 * The end-of-stream send drains the decoder, reports every send still
 * without a frame (retCode ERR_DECODE_NOPIC) and waits for the callbacks.
 * Rules: docs/dvpp.md "VDEC".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "base/util.h"
#include "dvpp/av_lib.h"
#include "dvpp/vdec_internal.h"

#define VDEC_ERR_NOPIC 0x20000u /* retCode of a send that produced no picture (docs/dvpp.md) */
#define VDEC_ERR_DECODE 0x20001u
#define VDEC_MIN 128u
#define VDEC_MAX 4096u

typedef struct vdec_entry {
    uint64_t seq;
    acldvppStreamDesc *in;
    acldvppPicDesc *out; /* NULL for a skipped frame */
    void *user;
    struct vdec_entry *next;
} vdec_entry;

struct oa_vdec_chan {
    AVCodecContext *ctx;
    AVPacket *pkt;
    AVFrame *frm;
    aclrtStream stream;
    uint64_t thread_id;
    aclvdecCallback cb;
    uint32_t out_format, out_w, out_h, csc;
    pthread_mutex_t mu;
    vdec_entry *pending; /* sent, no frame yet (send order) */
    vdec_entry *ready;   /* frame written (or given up), callback not run yet; in completion order */
    vdec_entry **ready_tail;
    uint64_t next_seq;
};

static void push_ready(oa_vdec_chan *c, vdec_entry *e)
{
    pthread_mutex_lock(&c->mu);
    e->next = NULL;
    *c->ready_tail = e;
    c->ready_tail = &e->next;
    pthread_mutex_unlock(&c->mu);
}

/* Removes and returns the pending entry of send seq (NULL if none). */
static vdec_entry *take_pending(oa_vdec_chan *c, uint64_t seq, bool any)
{
    pthread_mutex_lock(&c->mu);
    vdec_entry **pp = &c->pending;
    while (*pp != NULL && !any && (*pp)->seq != seq) {
        pp = &(*pp)->next;
    }
    vdec_entry *e = *pp;
    if (e != NULL) {
        *pp = e->next;
    }
    pthread_mutex_unlock(&c->mu);
    return e;
}

static bool vdec_format(uint32_t f)
{
    return f == PIXEL_FORMAT_YUV_SEMIPLANAR_420 || f == PIXEL_FORMAT_YVU_SEMIPLANAR_420 || f == PIXEL_FORMAT_RGB_888 ||
           f == PIXEL_FORMAT_BGR_888;
}

/* The frame as an NV12/NV21 picture in a new buffer (10-bit samples reduced to 8); NULL data on failure. */
static oa_dvpp_pic frame_to_sp(const AVFrame *f, uint32_t fmt)
{
    const bool hbd = f->format == AV_PIX_FMT_YUV420P10LE;
    const uint32_t fw = (uint32_t)f->width & ~1u;
    const uint32_t fh = (uint32_t)f->height & ~1u;
    const uint32_t sws = oa_dvpp_align(fw, 16);
    oa_dvpp_pic p = {NULL, (size_t)sws * fh * 3u / 2u, oa_dvpp_fmt_find(fmt), fw, fh, sws, fh};
    p.data = malloc(p.bytes);
    if (p.data == NULL) {
        return p;
    }
    const bool swap = fmt == PIXEL_FORMAT_YVU_SEMIPLANAR_420;
    for (uint32_t y = 0; y < fh; ++y) {
        uint8_t *d = p.data + (size_t)y * sws;
        if (hbd) {
            const uint16_t *s = (const uint16_t *)(const void *)(f->data[0] + (size_t)y * (size_t)f->linesize[0]);
            for (uint32_t x = 0; x < fw; ++x) {
                d[x] = (uint8_t)(s[x] >> 2);
            }
        } else {
            memcpy(d, f->data[0] + (size_t)y * (size_t)f->linesize[0], fw);
        }
    }
    for (uint32_t y = 0; y < fh / 2u; ++y) {
        uint8_t *d = p.data + (size_t)sws * fh + (size_t)y * sws;
        for (uint32_t x = 0; x < fw / 2u; ++x) {
            uint32_t u = 0, v = 0;
            if (hbd) {
                u = ((const uint16_t *)(const void *)(f->data[1] + (size_t)y * (size_t)f->linesize[1]))[x] >> 2;
                v = ((const uint16_t *)(const void *)(f->data[2] + (size_t)y * (size_t)f->linesize[2]))[x] >> 2;
            } else {
                u = f->data[1][(size_t)y * (size_t)f->linesize[1] + x];
                v = f->data[2][(size_t)y * (size_t)f->linesize[2] + x];
            }
            d[2 * x] = (uint8_t)(swap ? v : u);
            d[2 * x + 1] = (uint8_t)(swap ? u : v);
        }
    }
    return p;
}

/*
 * Writes the decoded frame into out: NV12/NV21 (resized by VPC bilinear when
 * the output size differs) or RGB888/BGR888 (then converted with the
 * channel's colour matrix).
 */
static uint32_t write_frame(oa_vdec_chan *c, const AVFrame *f, acldvppPicDesc *out)
{
    if (f->format != AV_PIX_FMT_YUV420P && f->format != AV_PIX_FMT_YUVJ420P && f->format != AV_PIX_FMT_YUV420P10LE) {
        OA_LOGE("VDEC: decoded pixel format %d is not 4:2:0", f->format);
        return VDEC_ERR_DECODE;
    }
    if (f->width < 2 || f->height < 2) {
        /* a 4:2:0 picture has whole 2x2 chroma blocks: 24x1 (a damaged stream's) has none, nothing to convert */
        OA_LOGE("VDEC: the decoded picture is %dx%d, smaller than one 2x2 block", f->width, f->height);
        return VDEC_ERR_DECODE;
    }
    const uint32_t fmt = vdec_format(out->format) ? out->format : c->out_format;
    const bool rgb = fmt == PIXEL_FORMAT_RGB_888 || fmt == PIXEL_FORMAT_BGR_888;
    const oa_dvpp_fmt *of = oa_dvpp_fmt_find(fmt);
    /* the output geometry: all four values set on the picture, or none (the channel's / the stream's size) */
    uint32_t w = out->width, h = out->height, ws = out->width_stride, hs = out->height_stride;
    if (w == 0 && h == 0 && ws == 0 && hs == 0) {
        w = c->out_w != 0 ? c->out_w : ((uint32_t)f->width & ~1u);
        h = c->out_h != 0 ? c->out_h : ((uint32_t)f->height & ~1u);
        ws = oa_dvpp_align(w, 16) * of->bpp;
        hs = rgb ? h : oa_dvpp_align(h, 2);
    }
    size_t need = 0;
    if (!oa_dvpp_fmt_bytes(of, ws, hs, &need) || ws < w * of->bpp || out->data == NULL || need > out->size ||
        oa_dvpp_buffer_check(out->data, need, "VDEC output") != OA_OK) {
        OA_LOGE("VDEC: output picture of %u bytes (data %p) cannot hold %s %ux%u with strides %ux%u", out->size,
                out->data, of->name, w, h, ws, hs);
        return VDEC_ERR_DECODE;
    }
    const uint32_t sp_fmt = rgb ? PIXEL_FORMAT_YUV_SEMIPLANAR_420 : fmt;
    oa_dvpp_pic src = frame_to_sp(f, sp_fmt);
    const oa_dvpp_pic dst = {out->data, need, of, w, h, ws, hs};
    oa_dvpp_pic mid = {NULL, 0, src.fmt, w, h, oa_dvpp_align(w, 16), h};
    oa_status st = src.data != NULL ? OA_OK : OA_E_NOMEM;
    if (st == OA_OK && rgb && (w != src.w || h != src.h)) {
        mid.bytes = (size_t)mid.ws * h * 3u / 2u;
        mid.data = malloc(mid.bytes);
        st = mid.data == NULL ? OA_E_NOMEM
                              : oa_dvpp_resize(&src, oa_dvpp_full_rect(&src), &mid, oa_dvpp_full_rect(&mid),
                                               OA_DVPP_INTERP_BILINEAR_CV);
    }
    if (st == OA_OK && rgb) {
        st = oa_dvpp_convert(mid.data != NULL ? &mid : &src, &dst, c->csc);
    } else if (st == OA_OK) {
        st = oa_dvpp_resize(&src, oa_dvpp_full_rect(&src), &dst, oa_dvpp_full_rect(&dst), OA_DVPP_INTERP_BILINEAR_CV);
    }
    free(mid.data);
    free(src.data);
    if (st != OA_OK) {
        return VDEC_ERR_DECODE;
    }
    out->width = w;
    out->height = h;
    out->width_stride = ws;
    out->height_stride = hs;
    out->format = fmt;
    return 0;
}

/* Receives every frame the decoder has and completes their sends. */
static void drain_frames(oa_vdec_chan *c)
{
    while (oa_av()->avcodec_receive_frame(c->ctx, c->frm) == 0) {
        const int64_t pts = c->frm->best_effort_timestamp != AV_NOPTS_VALUE ? c->frm->best_effort_timestamp
                                                                           : c->frm->pts;
        vdec_entry *e = take_pending(c, (uint64_t)pts, false);
        if (e == NULL) {
            e = take_pending(c, 0, true); /* no timestamp match: the oldest send */
        }
        if (e != NULL) {
            if (e->out != NULL) {
                e->out->ret_code = write_frame(c, c->frm, e->out);
            }
            push_ready(c, e);
        }
        oa_av()->av_frame_unref(c->frm);
    }
}

typedef struct decode_job {
    oa_vdec_chan *chan;
    const uint8_t *data;
    uint32_t size;
    uint64_t seq;
    bool eos;
} decode_job;

static _Thread_local bool t_decoding; /* this thread is running a channel's decoder (route_av_log) */

static oa_status decode_job_run(decode_job *j);

static oa_status decode_run(void *p)
{
    t_decoding = true;
    const oa_status st = decode_job_run(p);
    t_decoding = false;
    return st;
}

static oa_status decode_job_run(decode_job *j)
{
    oa_vdec_chan *c = j->chan;
    if (j->eos) {
        (void)oa_av()->avcodec_send_packet(c->ctx, NULL);
        drain_frames(c);
        vdec_entry *e;
        while ((e = take_pending(c, 0, true)) != NULL) { /* sends that never produced a picture */
            if (e->out != NULL) {
                e->out->ret_code = VDEC_ERR_NOPIC;
            }
            if (e->in != NULL) {
                e->in->ret_code = VDEC_ERR_NOPIC;
            }
            push_ready(c, e);
        }
        oa_av()->avcodec_flush_buffers(c->ctx); /* the channel may take a new stream */
        return OA_OK;
    }
    oa_av()->av_packet_unref(c->pkt);
    if (oa_av()->av_new_packet(c->pkt, (int)j->size) != 0) {
        return OA_FAIL(OA_E_NOMEM, "VDEC: packet of %u bytes", j->size);
    }
    memcpy(c->pkt->data, j->data, j->size);
    c->pkt->pts = (int64_t)j->seq;
    c->pkt->dts = AV_NOPTS_VALUE;
    int rc = oa_av()->avcodec_send_packet(c->ctx, c->pkt);
    if (rc == AVERROR(EAGAIN)) {
        drain_frames(c);
        rc = oa_av()->avcodec_send_packet(c->ctx, c->pkt);
    }
    if (rc < 0) {
        OA_LOGW("VDEC: frame %llu of %u bytes was not decoded (FFmpeg error %d)", (unsigned long long)j->seq, j->size,
                rc);
    }
    drain_frames(c);
    return OA_OK;
}

/* Report-thread side: runs the application's callback for every completed send. */
static void dispatch(void *p)
{
    oa_vdec_chan *c = p;
    pthread_mutex_lock(&c->mu);
    vdec_entry *e = c->ready;
    c->ready = NULL;
    c->ready_tail = &c->ready;
    pthread_mutex_unlock(&c->mu);
    while (e != NULL) {
        vdec_entry *next = e->next;
        c->cb(e->in, e->out, e->user);
        free(e);
        e = next;
    }
}

static void chan_free(oa_vdec_chan *c)
{
    if (c == NULL) {
        return;
    }
    oa_av()->avcodec_free_context(&c->ctx);
    oa_av()->av_packet_free(&c->pkt);
    oa_av()->av_frame_free(&c->frm);
    for (vdec_entry *lists[2] = {c->pending, c->ready}, **l = lists; l < lists + 2; ++l) {
        for (vdec_entry *e = *l; e != NULL;) {
            vdec_entry *n = e->next;
            free(e);
            e = n;
        }
    }
    pthread_mutex_destroy(&c->mu);
    free(c);
}

/*
 * Pictures the decoder may allocate (docs/dvpp.md, VDEC): CANN's input range
 * ends at 4096 a side, and a stream whose header declares more is not decoded
 * (its sends end with ERR_DECODE_NOPIC) rather than decoded at any size a
 * hostile header names. $OPENACL_VDEC_MAX_PIXELS lowers the pixel count.
 */
static int64_t max_pixels(void)
{
    const long full = (long)VDEC_MAX * VDEC_MAX;
    const long v = oa_env_long("OPENACL_VDEC_MAX_PIXELS", full);
    return v > 0 && v < full ? v : full;
}

static int get_picture(AVCodecContext *ctx, AVFrame *f, int flags)
{
    if (f->width > (int)VDEC_MAX || f->height > (int)VDEC_MAX) {
        OA_LOGE("VDEC: the stream's picture is %dx%d, beyond the %ux%u decoders take", f->width, f->height, VDEC_MAX,
                VDEC_MAX);
        return AVERROR(EINVAL);
    }
    return oa_av()->avcodec_default_get_buffer2(ctx, f, flags);
}

/*
 * FFmpeg's decoders log every defect of a damaged stream on stderr (tens of lines per frame). What they say on a
 * channel's decoding thread (t_decoding) goes to our log at debug level instead (the send's retCode and one
 * warning per frame report the outcome); messages on the application's own threads still reach FFmpeg's default
 * output.
 */
__attribute__((format(printf, 3, 0))) static void route_av_log(void *avcl, int level, const char *fmt, va_list vl)
{
    if (!t_decoding) {
        oa_av()->av_log_default_callback(avcl, level, fmt, vl);
        return;
    }
    if (level > AV_LOG_WARNING || !oa_log_enabled(OA_LOG_DEBUG, OA_LOG_MODULE)) {
        return;
    }
    char line[256];
    (void)vsnprintf(line, sizeof line, fmt, vl);
    line[strcspn(line, "\n")] = '\0';
    OA_LOGD("VDEC: FFmpeg: %s", line);
}

static void route_av_log_once(void)
{
    oa_av()->av_log_set_callback(route_av_log);
}

static oa_status chan_create(aclvdecChannelDesc *d)
{
    if (d->chan != NULL) {
        return OA_FAIL(OA_E_PARAM, "VDEC channel %u is already created", d->channel_id);
    }
    if (d->callback == NULL || d->thread_id == 0) {
        return OA_FAIL(OA_E_PARAM, "VDEC channel %u needs a callback and a thread id (aclvdecSetChannelDescCallback, "
                       "aclvdecSetChannelDescThreadId)", d->channel_id);
    }
    if ((d->out_width != 0 || d->out_height != 0) &&
        (d->out_width < 10 || d->out_height < 6 || d->out_width > VDEC_MAX || d->out_height > VDEC_MAX ||
         ((d->out_width | d->out_height) & 1u) != 0)) {
        return OA_FAIL(OA_E_PARAM, "VDEC output size %ux%u must be even and within 10x6 .. %ux%u", d->out_width,
                       d->out_height, VDEC_MAX, VDEC_MAX);
    }
    const oa_status loaded = oa_av_lib_load(); /* FFmpeg, on the first video channel */
    if (loaded != OA_OK) {
        return loaded;
    }
    const enum AVCodecID id = d->en_type == H265_MAIN_LEVEL ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264;
    const AVCodec *codec = oa_av()->avcodec_find_decoder(id);
    if (codec == NULL) {
        return OA_FAIL(OA_E_NOT_SUPPORTED, "VDEC: this FFmpeg has no %s decoder", id == AV_CODEC_ID_HEVC ? "H.265"
                                                                                                        : "H.264");
    }
    static pthread_once_t route_once = PTHREAD_ONCE_INIT;
    (void)pthread_once(&route_once, route_av_log_once);
    oa_vdec_chan *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return OA_FAIL(OA_E_NOMEM, "VDEC channel");
    }
    pthread_mutex_init(&c->mu, NULL);
    c->ready_tail = &c->ready;
    c->cb = d->callback;
    c->thread_id = d->thread_id;
    c->out_format = d->out_format;
    c->out_w = d->out_width;
    c->out_h = d->out_height;
    c->csc = d->csc;
    c->ctx = oa_av()->avcodec_alloc_context3(codec);
    c->pkt = oa_av()->av_packet_alloc();
    c->frm = oa_av()->av_frame_alloc();
    oa_status st = OA_OK;
    if (c->ctx == NULL || c->pkt == NULL || c->frm == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "VDEC decoder context");
    } else {
        c->ctx->thread_count = 1; /* frames leave the decoder as early as the stream allows */
        c->ctx->thread_type = FF_THREAD_SLICE; /* never frame threads (get_picture is not marked for them) */
        c->ctx->max_pixels = max_pixels();
        c->ctx->get_buffer2 = get_picture;
        if (d->out_mode == 1) {
            /* outMode 1, CANN's fast output: each frame leaves as soon as it is decoded, no reordering delay */
            c->ctx->flags |= AV_CODEC_FLAG_LOW_DELAY;
        }
        if (oa_av()->avcodec_open2(c->ctx, codec, NULL) < 0) {
            st = OA_FAIL(OA_E_FAILURE, "VDEC: cannot open the FFmpeg decoder");
        }
    }
    aclError e = ACL_SUCCESS;
    if (st == OA_OK && (e = aclrtCreateStream(&c->stream)) != ACL_SUCCESS) {
        st = OA_FAIL(OA_E_RT_FAILURE, "VDEC: cannot create the channel's stream (%d)", e);
    }
    if (st == OA_OK && (e = aclrtSubscribeReport(c->thread_id, c->stream)) != ACL_SUCCESS) {
        st = OA_FAIL(OA_E_PARAM, "VDEC: cannot bind thread %llu to the channel's callbacks (%d)",
                     (unsigned long long)c->thread_id, e);
        (void)aclrtDestroyStream(c->stream);
    }
    if (st != OA_OK) {
        chan_free(c);
        return st;
    }
    d->chan = c;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclvdecCreateChannel(aclvdecChannelDesc *channelDesc)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    return oa_status_to_acl(chan_create(channelDesc));
}

/* Queues a decode job and the callback task that reports what it completed. */
static oa_status send(oa_vdec_chan *c, decode_job *j)
{
    oa_status st = oa_dvpp_submit(c->stream, decode_run, j);
    if (st != OA_OK) {
        return st;
    }
    const aclError e = aclrtLaunchCallback(dispatch, c, ACL_CALLBACK_BLOCK, c->stream);
    return e == ACL_SUCCESS ? OA_OK : OA_FAIL(OA_E_RT_FAILURE, "VDEC: cannot queue the callback (%d)", e);
}

static oa_status send_eos(oa_vdec_chan *c)
{
    decode_job *j = calloc(1, sizeof(*j));
    if (j == NULL) {
        return OA_FAIL(OA_E_NOMEM, "VDEC task");
    }
    j->chan = c;
    j->eos = true;
    oa_status st = send(c, j);
    const aclError e = aclrtSynchronizeStream(c->stream); /* every frame decoded and reported */
    if (st == OA_OK && e != ACL_SUCCESS) {
        st = OA_FAIL(OA_E_RT_FAILURE, "VDEC: end of stream failed (%d)", e);
    }
    return st;
}

static oa_status send_frame(aclvdecChannelDesc *d, acldvppStreamDesc *in, acldvppPicDesc *out, bool skipped,
                            void *user)
{
    if (d == NULL || d->chan == NULL) {
        return OA_FAIL(OA_E_PARAM, "the VDEC channel is not created (aclvdecCreateChannel)");
    }
    if (in == NULL) {
        return OA_FAIL(OA_E_PARAM, "parameter [input] must not be null");
    }
    oa_vdec_chan *c = d->chan;
    if (in->eos != 0) {
        return send_eos(c);
    }
    if (in->data == NULL || in->size == 0) {
        return OA_FAIL(OA_E_PARAM, "VDEC input: a frame needs data and a size (or eos = 1 to end the stream)");
    }
    oa_status st = oa_dvpp_buffer_check(in->data, in->size, "VDEC input data");
    if (st != OA_OK) {
        return st;
    }
    if (!skipped) {
        if (out == NULL) {
            return OA_FAIL(OA_E_PARAM, "parameter [output] must not be null");
        }
        const int set = (out->width != 0) + (out->height != 0) + (out->width_stride != 0) + (out->height_stride != 0);
        if (set != 0 && set != 4) {
            return OA_FAIL(OA_E_PARAM, "VDEC output: set all of width, height, widthStride and heightStride, or none "
                           "(%ux%u, strides %ux%u)", out->width, out->height, out->width_stride, out->height_stride);
        }
        if (set == 4 && (out->width < 10 || out->height < 6 || out->width > VDEC_MAX || out->height > VDEC_MAX ||
                         ((out->width | out->height) & 1u) != 0 || out->width_stride % 16u != 0 ||
                         out->width_stride < out->width || out->height_stride < out->height ||
                         (out->height_stride & 1u) != 0)) {
            return OA_FAIL(OA_E_PARAM, "VDEC output %ux%u with strides %ux%u: sizes even within 10x6 .. %ux%u, "
                           "widthStride a multiple of 16", out->width, out->height, out->width_stride,
                           out->height_stride, VDEC_MAX, VDEC_MAX);
        }
        if (out->data == NULL || out->size == 0) {
            return OA_FAIL(OA_E_PARAM, "VDEC output picture needs data and a size");
        }
    }
    vdec_entry *e = calloc(1, sizeof(*e));
    decode_job *j = calloc(1, sizeof(*j));
    if (e == NULL || j == NULL) {
        free(e);
        free(j);
        return OA_FAIL(OA_E_NOMEM, "VDEC task");
    }
    pthread_mutex_lock(&c->mu);
    e->seq = c->next_seq++;
    e->in = in;
    e->out = skipped ? NULL : out;
    e->user = user;
    vdec_entry **pp = &c->pending;
    while (*pp != NULL) {
        pp = &(*pp)->next;
    }
    *pp = e;
    pthread_mutex_unlock(&c->mu);
    j->chan = c;
    j->data = in->data;
    j->size = in->size;
    j->seq = e->seq;
    return send(c, j);
}

ACL_FUNC_VISIBILITY aclError aclvdecSendFrame(aclvdecChannelDesc *channelDesc, acldvppStreamDesc *input,
                                              acldvppPicDesc *output, aclvdecFrameConfig *config, void *userData)
{
    (void)config; /* reserved */
    return oa_status_to_acl(send_frame(channelDesc, input, output, false, userData));
}

ACL_FUNC_VISIBILITY aclError aclvdecSendSkippedFrame(aclvdecChannelDesc *channelDesc, acldvppStreamDesc *input,
                                                     aclvdecFrameConfig *config, void *userData)
{
    (void)config;
    return oa_status_to_acl(send_frame(channelDesc, input, NULL, true, userData));
}

ACL_FUNC_VISIBILITY aclError aclvdecDestroyChannel(aclvdecChannelDesc *channelDesc)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE(channelDesc->chan != NULL, OA_E_PARAM, "the VDEC channel is not created");
    oa_vdec_chan *c = channelDesc->chan;
    pthread_mutex_lock(&c->mu);
    const bool pending = c->pending != NULL;
    pthread_mutex_unlock(&c->mu);
    oa_status st = pending ? send_eos(c) : OA_OK; /* report what is still in flight */
    if (aclrtSynchronizeStream(c->stream) != ACL_SUCCESS && st == OA_OK) {
        st = OA_FAIL(OA_E_RT_FAILURE, "VDEC: the channel's stream failed");
    }
    (void)aclrtUnSubscribeReport(c->thread_id, c->stream);
    (void)aclrtDestroyStream(c->stream);
    chan_free(c);
    channelDesc->chan = NULL;
    return oa_status_to_acl(st);
}

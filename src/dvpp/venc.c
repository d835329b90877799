/*
 * VENC channels over FFmpeg's libavcodec (libx264 / libx265 when present,
 * tuned for zero latency: one encoded frame per picture, no B-frames). Like
 * VDEC (vdec.c), a channel owns a stream whose callbacks go to the
 * application's report thread; each aclvencSendFrame queues an encode task
 * and a blocking callback task. The encoded frame is handed to the callback
 * as a stream description whose data is device memory the library owns and
 * frees when the callback returns. The end-of-stream send (config eos = 1)
 * drains the encoder and waits for the callbacks. Rules: docs/dvpp.md "VENC".
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "base/acl_check.h"
#include "dvpp/av_lib.h"
#include "dvpp/venc_internal.h"
#include "mem/mem_table.h"

#define VENC_MIN 128u
#define VENC_MAX 4096u
#define VENC_ERR_ENCODE 0x20001u

typedef struct venc_entry {
    uint64_t seq;
    acldvppPicDesc *in;
    acldvppStreamDesc *out;
    void *user;
    struct venc_entry *next;
} venc_entry;

struct oa_venc_chan {
    AVCodecContext *ctx;
    AVFrame *frm;
    AVPacket *pkt;
    aclrtStream stream;
    uint64_t thread_id;
    int32_t device;
    aclvencCallback cb;
    uint32_t w, h, stream_format;
    pthread_mutex_t mu;
    venc_entry *pending;
    venc_entry *ready;
    venc_entry **ready_tail;
    uint64_t next_seq;
    bool ended;
};

static atomic_uint g_next_venc_id;

static void push_ready(oa_venc_chan *c, venc_entry *e)
{
    pthread_mutex_lock(&c->mu);
    e->next = NULL;
    *c->ready_tail = e;
    c->ready_tail = &e->next;
    pthread_mutex_unlock(&c->mu);
}

static venc_entry *take_pending(oa_venc_chan *c, int64_t seq)
{
    pthread_mutex_lock(&c->mu);
    venc_entry **pp = &c->pending;
    while (seq >= 0 && *pp != NULL && (int64_t)(*pp)->seq != seq) {
        pp = &(*pp)->next;
    }
    if (*pp == NULL) {
        pp = &c->pending; /* no match: the oldest picture */
    }
    venc_entry *e = *pp;
    if (e != NULL) {
        *pp = e->next;
    }
    pthread_mutex_unlock(&c->mu);
    return e;
}

/* A stream description over a device copy of the packet (owned by the library). */
static acldvppStreamDesc *packet_desc(oa_venc_chan *c, const AVPacket *p)
{
    acldvppStreamDesc *s = calloc(1, sizeof(*s));
    if (s == NULL) {
        return NULL;
    }
    s->format = c->stream_format;
    s->timestamp = (uint64_t)p->pts;
    void *d = NULL;
    if (oa_mem_alloc(OA_MEM_KIND_DEVICE, c->device, (size_t)p->size, (size_t)p->size, 0, &d) != OA_OK) {
        s->ret_code = VENC_ERR_ENCODE;
        return s;
    }
    memcpy(d, p->data, (size_t)p->size);
    s->data = d;
    s->size = (uint32_t)p->size;
    return s;
}

static void drain_packets(oa_venc_chan *c)
{
    while (oa_av()->avcodec_receive_packet(c->ctx, c->pkt) == 0) {
        venc_entry *e = take_pending(c, c->pkt->pts);
        if (e != NULL) {
            e->out = packet_desc(c, c->pkt);
            push_ready(c, e);
        }
        oa_av()->av_packet_unref(c->pkt);
    }
}

typedef struct encode_job {
    oa_venc_chan *chan;
    oa_dvpp_pic in;
    uint64_t seq;
    bool force_i;
    bool eos;
} encode_job;

static oa_status encode_run(void *p)
{
    encode_job *j = p;
    oa_venc_chan *c = j->chan;
    if (j->eos) {
        (void)oa_av()->avcodec_send_frame(c->ctx, NULL);
        drain_packets(c);
        venc_entry *e;
        while ((e = take_pending(c, -1)) != NULL) { /* pictures the encoder never returned */
            e->out = calloc(1, sizeof(*e->out));
            if (e->out != NULL) {
                e->out->ret_code = VENC_ERR_ENCODE;
            }
            push_ready(c, e);
        }
        return OA_OK;
    }
    AVFrame *f = c->frm;
    if (oa_av()->av_frame_make_writable(f) < 0) {
        return OA_FAIL(OA_E_NOMEM, "VENC frame");
    }
    const oa_dvpp_pic *in = &j->in;
    for (uint32_t y = 0; y < c->h; ++y) {
        memcpy(f->data[0] + (size_t)y * (size_t)f->linesize[0], in->data + (size_t)y * in->ws, c->w);
    }
    const bool swap = in->fmt->swap_uv != 0;
    for (uint32_t y = 0; y < c->h / 2u; ++y) {
        const uint8_t *uv = in->data + (size_t)in->ws * in->hs + (size_t)y * in->ws;
        uint8_t *u = f->data[1] + (size_t)y * (size_t)f->linesize[1];
        uint8_t *v = f->data[2] + (size_t)y * (size_t)f->linesize[2];
        for (uint32_t x = 0; x < c->w / 2u; ++x) {
            u[x] = uv[2 * x + (swap ? 1 : 0)];
            v[x] = uv[2 * x + (swap ? 0 : 1)];
        }
    }
    f->pts = (int64_t)j->seq;
    f->pict_type = j->force_i ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE;
    int rc = oa_av()->avcodec_send_frame(c->ctx, f);
    if (rc == AVERROR(EAGAIN)) {
        drain_packets(c);
        rc = oa_av()->avcodec_send_frame(c->ctx, f);
    }
    if (rc < 0) {
        OA_LOGW("VENC: picture %llu was not encoded (FFmpeg error %d)", (unsigned long long)j->seq, rc);
    }
    drain_packets(c);
    return OA_OK;
}

/* Frees an encoded frame's device copy (a failure is logged: nothing else can be done with it). */
static void free_packet(acldvppStreamDesc *s)
{
    if (s != NULL && s->data != NULL && oa_mem_free(s->data, OA_MEM_KIND_DEVICE, NULL) != OA_OK) {
        OA_LOGW("VENC: the encoded frame %p was already freed", s->data);
    }
    free(s);
}

static void dispatch(void *p)
{
    oa_venc_chan *c = p;
    pthread_mutex_lock(&c->mu);
    venc_entry *e = c->ready;
    c->ready = NULL;
    c->ready_tail = &c->ready;
    pthread_mutex_unlock(&c->mu);
    while (e != NULL) {
        venc_entry *next = e->next;
        c->cb(e->in, e->out, e->user);
        free_packet(e->out);
        free(e);
        e = next;
    }
}

static void chan_free(oa_venc_chan *c)
{
    if (c == NULL) {
        return;
    }
    oa_av()->avcodec_free_context(&c->ctx);
    oa_av()->av_frame_free(&c->frm);
    oa_av()->av_packet_free(&c->pkt);
    for (venc_entry *lists[2] = {c->pending, c->ready}, **l = lists; l < lists + 2; ++l) {
        for (venc_entry *e = *l; e != NULL;) {
            venc_entry *n = e->next;
            free_packet(e->out);
            free(e);
            e = n;
        }
    }
    pthread_mutex_destroy(&c->mu);
    free(c);
}

static const AVCodec *find_encoder(uint32_t en_type)
{
    const bool hevc = en_type == H265_MAIN_LEVEL;
    const AVCodec *e = oa_av()->avcodec_find_encoder_by_name(hevc ? "libx265" : "libx264");
    return e != NULL ? e : oa_av()->avcodec_find_encoder(hevc ? AV_CODEC_ID_HEVC : AV_CODEC_ID_H264);
}

static oa_status open_encoder(oa_venc_chan *c, const aclvencChannelDesc *d)
{
    const AVCodec *codec = find_encoder(d->en_type);
    if (codec == NULL) {
        return OA_FAIL(OA_E_NOT_SUPPORTED, "VENC: this FFmpeg has no %s encoder",
                       d->en_type == H265_MAIN_LEVEL ? "H.265" : "H.264");
    }
    c->ctx = oa_av()->avcodec_alloc_context3(codec);
    c->frm = oa_av()->av_frame_alloc();
    c->pkt = oa_av()->av_packet_alloc();
    if (c->ctx == NULL || c->frm == NULL || c->pkt == NULL) {
        return OA_FAIL(OA_E_NOMEM, "VENC encoder context");
    }
    AVCodecContext *x = c->ctx;
    x->width = (int)d->pic_width;
    x->height = (int)d->pic_height;
    x->pix_fmt = AV_PIX_FMT_YUV420P;
    x->time_base = (AVRational){1, (int)d->src_rate};
    x->framerate = (AVRational){(int)d->src_rate, 1};
    x->gop_size = (int)d->key_frame_interval;
    x->max_b_frames = 0;
    x->thread_count = 1;
    /*
     * Rate control (docs/dvpp.md "VENC"): maxBitRate kbit/s with a one-second buffer. CBR (rcMode 2):
     * bit rate = minimum = maximum, the H.264 stream padded with filler data (NAL HRD "cbr"); VBR (rcMode 0,
     * the 310P default, or 1): constant quality capped at maxBitRate. maxBitRate 0: the encoder's default.
     */
    const bool cbr = d->rc_mode == VENC_RC_CBR && d->max_bit_rate != 0;
    if (d->max_bit_rate != 0) {
        const int64_t rate = (int64_t)d->max_bit_rate * 1000;
        x->rc_max_rate = rate;
        x->rc_buffer_size = (int)(rate > INT32_MAX ? INT32_MAX : rate);
        if (cbr) {
            x->bit_rate = rate;
            x->rc_min_rate = rate;
        }
    }
    AVDictionary *opt = NULL;
    if (cbr && strcmp(codec->name, "libx264") == 0) {
        (void)oa_av()->av_dict_set(&opt, "nal-hrd", "cbr", 0);
    }
    (void)oa_av()->av_dict_set(&opt, "preset", "veryfast", 0);
    (void)oa_av()->av_dict_set(&opt, "tune", "zerolatency", 0);
    (void)oa_av()->av_dict_set(&opt, "forced-idr", "1", 0); /* forceIFrame makes an IDR frame */
    if (strcmp(codec->name, "libx265") == 0) {
        /* key frames IDR, not CRA; CBR: x265's strict constant bit rate with filler */
        (void)oa_av()->av_dict_set(&opt, "x265-params", cbr ? "open-gop=0:strict-cbr=1" : "open-gop=0", 0);
    }
    static const char *const profiles[] = {"main", "baseline", "main", "high"};
    (void)oa_av()->av_dict_set(&opt, "profile", profiles[d->en_type], 0);
    const int rc = oa_av()->avcodec_open2(x, codec, &opt);
    oa_av()->av_dict_free(&opt);
    if (rc < 0) {
        return OA_FAIL(OA_E_PARAM, "VENC: FFmpeg's %s refuses %ux%u at %u fps (error %d)", codec->name, d->pic_width,
                       d->pic_height, d->src_rate, rc);
    }
    c->frm->format = AV_PIX_FMT_YUV420P;
    c->frm->width = x->width;
    c->frm->height = x->height;
    if (oa_av()->av_frame_get_buffer(c->frm, 0) < 0) {
        return OA_FAIL(OA_E_NOMEM, "VENC frame buffer");
    }
    return OA_OK;
}

static oa_status chan_create(aclvencChannelDesc *d)
{
    if (d->chan != NULL) {
        return OA_FAIL(OA_E_PARAM, "VENC channel %u is already created", d->channel_id);
    }
    if (d->callback == NULL || d->thread_id == 0) {
        return OA_FAIL(OA_E_PARAM, "VENC needs a callback and a thread id (aclvencSetChannelDescCallback, "
                       "aclvencSetChannelDescThreadId)");
    }
    if (d->pic_width < VENC_MIN || d->pic_height < VENC_MIN || d->pic_width > VENC_MAX ||
        d->pic_height > VENC_MAX || ((d->pic_width | d->pic_height) & 1u) != 0) {
        return OA_FAIL(OA_E_PARAM, "VENC picture %ux%u must be even and within %ux%u .. %ux%u", d->pic_width,
                       d->pic_height, VENC_MIN, VENC_MIN, VENC_MAX, VENC_MAX);
    }
    const oa_status loaded = oa_av_lib_load(); /* FFmpeg, on the first video channel (chan_free needs it) */
    if (loaded != OA_OK) {
        return loaded;
    }
    oa_venc_chan *c = calloc(1, sizeof(*c));
    if (c == NULL) {
        return OA_FAIL(OA_E_NOMEM, "VENC channel");
    }
    pthread_mutex_init(&c->mu, NULL);
    c->ready_tail = &c->ready;
    c->cb = d->callback;
    c->thread_id = d->thread_id;
    c->w = d->pic_width;
    c->h = d->pic_height;
    c->stream_format = d->en_type;
    oa_status st = open_encoder(c, d);
    aclError e = ACL_SUCCESS;
    if (st == OA_OK && (e = aclrtGetDevice(&c->device)) != ACL_SUCCESS) {
        st = OA_FAIL(OA_E_RT_CONTEXT_NULL, "VENC: no current device (aclrtSetDevice) (%d)", e);
    }
    if (st == OA_OK && (e = aclrtCreateStream(&c->stream)) != ACL_SUCCESS) {
        st = OA_FAIL(OA_E_RT_FAILURE, "VENC: cannot create the channel's stream (%d)", e);
    }
    if (st == OA_OK && (e = aclrtSubscribeReport(c->thread_id, c->stream)) != ACL_SUCCESS) {
        st = OA_FAIL(OA_E_PARAM, "VENC: cannot bind thread %llu to the channel's callbacks (%d)",
                     (unsigned long long)c->thread_id, e);
        (void)aclrtDestroyStream(c->stream);
    }
    if (st != OA_OK) {
        chan_free(c);
        return st;
    }
    d->channel_id = atomic_fetch_add(&g_next_venc_id, 1u);
    d->chan = c;
    return OA_OK;
}

ACL_FUNC_VISIBILITY aclError aclvencCreateChannel(aclvencChannelDesc *channelDesc)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    return oa_status_to_acl(chan_create(channelDesc));
}

static oa_status queue(oa_venc_chan *c, encode_job *j)
{
    oa_status st = oa_dvpp_submit(c->stream, encode_run, j);
    if (st != OA_OK) {
        return st;
    }
    const aclError e = aclrtLaunchCallback(dispatch, c, ACL_CALLBACK_BLOCK, c->stream);
    return e == ACL_SUCCESS ? OA_OK : OA_FAIL(OA_E_RT_FAILURE, "VENC: cannot queue the callback (%d)", e);
}

static oa_status end_stream(oa_venc_chan *c)
{
    encode_job *j = calloc(1, sizeof(*j));
    if (j == NULL) {
        return OA_FAIL(OA_E_NOMEM, "VENC task");
    }
    j->chan = c;
    j->eos = true;
    c->ended = true;
    oa_status st = queue(c, j);
    const aclError e = aclrtSynchronizeStream(c->stream);
    if (st == OA_OK && e != ACL_SUCCESS) {
        st = OA_FAIL(OA_E_RT_FAILURE, "VENC: end of stream failed (%d)", e);
    }
    return st;
}

static const oa_dvpp_rules g_venc_in = {"VENC", "input", VENC_MIN, VENC_MIN, VENC_MAX, VENC_MAX, 16, 0,
                                        VENC_MIN, 16384, VENC_MIN, 16384, false};

static oa_status send_frame(aclvencChannelDesc *d, acldvppPicDesc *in, const void *reserve,
                            const aclvencFrameConfig *cfg, void *user)
{
    if (d == NULL || d->chan == NULL) {
        return OA_FAIL(OA_E_PARAM, "the VENC channel is not created (aclvencCreateChannel)");
    }
    if (reserve != NULL || cfg == NULL) {
        return OA_FAIL(OA_E_PARAM, "VENC: reserve must be null and config must be given");
    }
    oa_venc_chan *c = d->chan;
    if (c->ended) {
        return OA_FAIL(OA_E_PARAM, "VENC channel %u has ended its stream (eos)", d->channel_id);
    }
    if (cfg->eos != 0) {
        return end_stream(c);
    }
    encode_job *j = calloc(1, sizeof(*j));
    venc_entry *e = calloc(1, sizeof(*e));
    if (j == NULL || e == NULL) {
        free(j);
        free(e);
        return OA_FAIL(OA_E_NOMEM, "VENC task");
    }
    acldvppPicDesc geo;
    oa_status st = OA_OK;
    if (in == NULL) {
        st = OA_FAIL(OA_E_PARAM, "parameter [input] must not be null (eos = 0)");
    } else {
        geo = *in;
        if (geo.height_stride == 0) {
            geo.height_stride = geo.height; /* CANN does not need a height stride for VENC */
        }
        st = oa_dvpp_pic_check(&geo, &g_venc_in, &j->in);
    }
    if (st == OA_OK && (j->in.w != c->w || j->in.h != c->h ||
                        (j->in.fmt->format != PIXEL_FORMAT_YUV_SEMIPLANAR_420 &&
                         j->in.fmt->format != PIXEL_FORMAT_YVU_SEMIPLANAR_420))) {
        st = OA_FAIL(OA_E_PARAM, "VENC input %s %ux%u must be YUV420SP NV12/NV21 of the channel's %ux%u",
                     j->in.fmt->name, j->in.w, j->in.h, c->w, c->h);
    }
    if (st != OA_OK) {
        free(j);
        free(e);
        return st;
    }
    pthread_mutex_lock(&c->mu);
    e->seq = c->next_seq++;
    e->in = in;
    e->user = user;
    venc_entry **pp = &c->pending;
    while (*pp != NULL) {
        pp = &(*pp)->next;
    }
    *pp = e;
    pthread_mutex_unlock(&c->mu);
    j->chan = c;
    j->seq = e->seq;
    j->force_i = cfg->force_i_frame != 0;
    return queue(c, j);
}

ACL_FUNC_VISIBILITY aclError aclvencSendFrame(aclvencChannelDesc *channelDesc, acldvppPicDesc *input, void *reserve,
                                              aclvencFrameConfig *config, void *userdata)
{
    return oa_status_to_acl(send_frame(channelDesc, input, reserve, config, userdata));
}

ACL_FUNC_VISIBILITY aclError aclvencDestroyChannel(aclvencChannelDesc *channelDesc)
{
    ACL_REQUIRE_NOT_NULL(channelDesc);
    ACL_REQUIRE(channelDesc->chan != NULL, OA_E_PARAM, "the VENC channel is not created");
    oa_venc_chan *c = channelDesc->chan;
    oa_status st = c->ended ? OA_OK : end_stream(c); /* report the pictures still in flight */
    if (aclrtSynchronizeStream(c->stream) != ACL_SUCCESS && st == OA_OK) {
        st = OA_FAIL(OA_E_RT_FAILURE, "VENC: the channel's stream failed");
    }
    (void)aclrtUnSubscribeReport(c->thread_id, c->stream);
    (void)aclrtDestroyStream(c->stream);
    chan_free(c);
    channelDesc->chan = NULL;
    return oa_status_to_acl(st);
}

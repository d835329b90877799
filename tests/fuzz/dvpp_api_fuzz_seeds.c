/*
 * Seeds for fuzz_dvpp_api (input layout in fuzz_dvpp_api.c), written into
 * the directory given as the argument: JPEGs (4:2:0, 4:2:2, 4:4:4, gray,
 * progressive; libjpeg-turbo) and PNGs (RGB, RGBA, gray; libpng) for every
 * output-format choice, and short H.264 / H.265 clips (libavcodec's libx264
 * / libx265; with and without B-frames) for every VDEC output choice. A
 * codec missing from this FFmpeg gives no clip.
 */
#include <libavcodec/avcodec.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

enum { W = 48, H = 32, VW = 64, VH = 48, NFRAMES = 6 };

static const char *g_dir;
static int g_n;

static int write_seed(uint8_t ctrl, const void *p, size_t n)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/dvpp_api_%03d", g_dir, g_n++);
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return 1;
    }
    int bad = fwrite(&ctrl, 1, 1, f) != 1 || fwrite(p, 1, n, f) != n;
    return fclose(f) != 0 || bad;
}

/* An H.264/H.265 clip as [u16 length][packet] frames; 0 when the encoder is missing. */
static size_t encode_clip(const char *encoder, int bframes, uint8_t *out, size_t cap)
{
    const AVCodec *enc = avcodec_find_encoder_by_name(encoder);
    if (enc == NULL) {
        return 0;
    }
    AVCodecContext *ctx = avcodec_alloc_context3(enc);
    AVFrame *f = av_frame_alloc();
    AVPacket *p = av_packet_alloc();
    size_t n = 0;
    if (ctx == NULL || f == NULL || p == NULL) {
        goto done;
    }
    ctx->width = VW;
    ctx->height = VH;
    ctx->pix_fmt = AV_PIX_FMT_YUV420P;
    ctx->time_base = (AVRational){1, 25};
    ctx->gop_size = 4;
    ctx->max_b_frames = bframes;
    ctx->thread_count = 1;
    f->format = AV_PIX_FMT_YUV420P;
    f->width = VW;
    f->height = VH;
    if (avcodec_open2(ctx, enc, NULL) != 0 || av_frame_get_buffer(f, 0) != 0) {
        goto done;
    }
    for (int i = 0; i <= NFRAMES; ++i) {
        if (i < NFRAMES) {
            if (av_frame_make_writable(f) != 0) {
                goto done;
            }
            for (int y = 0; y < VH; ++y) {
                for (int x = 0; x < VW; ++x) {
                    f->data[0][y * f->linesize[0] + x] = (uint8_t)(x * 3 + y + i * 9);
                }
            }
            for (int y = 0; y < VH / 2; ++y) {
                for (int x = 0; x < VW / 2; ++x) {
                    f->data[1][y * f->linesize[1] + x] = (uint8_t)(128 + x - y + i);
                    f->data[2][y * f->linesize[2] + x] = (uint8_t)(90 + y + i * 5);
                }
            }
            f->pts = i;
        }
        if (avcodec_send_frame(ctx, i < NFRAMES ? f : NULL) < 0) {
            goto done;
        }
        while (avcodec_receive_packet(ctx, p) == 0) {
            if (p->size <= 0xffff && n + 2 + (size_t)p->size <= cap) {
                out[n++] = (uint8_t)(p->size & 0xff);
                out[n++] = (uint8_t)(p->size >> 8);
                memcpy(out + n, p->data, (size_t)p->size);
                n += (size_t)p->size;
            }
            av_packet_unref(p);
        }
    }
done:
    av_packet_free(&p);
    av_frame_free(&f);
    avcodec_free_context(&ctx);
    return n;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <dir>\n", argv[0]);
        return 2;
    }
    g_dir = argv[1];
    static unsigned char rgba[W * H * 4];
    for (int i = 0; i < W * H; ++i) {
        rgba[4 * i] = (unsigned char)(i * 7);
        rgba[4 * i + 1] = (unsigned char)(i / W * 5);
        rgba[4 * i + 2] = (unsigned char)(i % W * 3);
        rgba[4 * i + 3] = (unsigned char)(i * 11);
    }
    int rc = 0;
    const struct { int samp; int flags; } jpegs[] = {
        {TJSAMP_420, 0}, {TJSAMP_422, 0}, {TJSAMP_444, 0}, {TJSAMP_GRAY, 0}, {TJSAMP_420, TJFLAG_PROGRESSIVE},
    };
    tjhandle tj = tjInitCompress();
    for (size_t i = 0; i < sizeof(jpegs) / sizeof(jpegs[0]) && tj != NULL; ++i) {
        unsigned char *buf = NULL;
        unsigned long len = 0;
        if (tjCompress2(tj, rgba, W, 0, H, TJPF_RGBX, &buf, &len, jpegs[i].samp, 90, jpegs[i].flags) != 0) {
            rc = 1;
            continue;
        }
        for (uint8_t fmt = 0; fmt < 4; ++fmt) {
            rc |= write_seed((uint8_t)(0 | fmt << 2 | (fmt & 1) << 4), buf, len);
        }
        tjFree(buf);
    }
    if (tj != NULL) {
        tjDestroy(tj);
    }
    const png_uint_32 pngs[] = {PNG_FORMAT_RGB, PNG_FORMAT_RGBA, PNG_FORMAT_GRAY};
    for (size_t i = 0; i < sizeof(pngs) / sizeof(pngs[0]); ++i) {
        png_image img;
        memset(&img, 0, sizeof(img));
        img.version = PNG_IMAGE_VERSION;
        img.width = W;
        img.height = H;
        img.format = pngs[i];
        png_alloc_size_t len = 0;
        void *mem = NULL;
        if (!png_image_write_to_memory(&img, NULL, &len, 0, rgba, 0, NULL) || (mem = malloc(len)) == NULL ||
            !png_image_write_to_memory(&img, mem, &len, 0, rgba, 0, NULL)) {
            rc = 1;
        } else {
            for (uint8_t fmt = 0; fmt < 4; ++fmt) {
                rc |= write_seed((uint8_t)(1 | fmt << 2 | (fmt & 1) << 4), mem, len);
            }
        }
        free(mem);
    }
    static uint8_t clip[1 << 20];
    const struct { const char *enc; uint8_t mode; } codecs[] = {{"libx264", 2}, {"libx265", 3}};
    for (size_t c = 0; c < 2; ++c) {
        for (int b = 0; b <= 2; b += 2) {
            const size_t n = encode_clip(codecs[c].enc, b, clip, sizeof(clip));
            for (uint8_t fmt = 0; fmt < 4 && n > 0; ++fmt) {
                rc |= write_seed((uint8_t)(codecs[c].mode | fmt << 2 | (b ? 1 : 0) << 4), clip, n);
            }
        }
    }
    return rc;
}

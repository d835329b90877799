/*
 * Seeds for fuzz_dvpp_decode: small JPEGs (4:2:0, 4:2:2, 4:4:4, gray,
 * progressive) made with libjpeg-turbo and PNGs (RGB, RGBA, gray) made with
 * libpng, written into the directory given as the argument.
 */
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

static int write_file(const char *dir, const char *name, const void *p, size_t n)
{
    char path[1024];
    snprintf(path, sizeof(path), "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    if (f == NULL) {
        return 1;
    }
    const int bad = fwrite(p, 1, n, f) != n;
    return fclose(f) != 0 || bad;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s <dir>\n", argv[0]);
        return 2;
    }
    enum { W = 48, H = 40 };
    static unsigned char rgba[W * H * 4];
    for (int i = 0; i < W * H; ++i) {
        rgba[4 * i] = (unsigned char)(i * 7);
        rgba[4 * i + 1] = (unsigned char)(i / W * 5);
        rgba[4 * i + 2] = (unsigned char)(i % W * 3);
        rgba[4 * i + 3] = (unsigned char)(i * 11);
    }
    int rc = 0;
    const struct { const char *name; int samp; int flags; } jpegs[] = {
        {"s420.jpg", TJSAMP_420, 0}, {"s422.jpg", TJSAMP_422, 0}, {"s444.jpg", TJSAMP_444, 0},
        {"sgray.jpg", TJSAMP_GRAY, 0}, {"s440.jpg", TJSAMP_440, 0}, {"sprog.jpg", TJSAMP_420, TJFLAG_PROGRESSIVE},
    };
    tjhandle tj = tjInitCompress();
    for (size_t i = 0; i < sizeof(jpegs) / sizeof(jpegs[0]) && tj != NULL; ++i) {
        unsigned char *buf = NULL;
        unsigned long len = 0;
        if (tjCompress2(tj, rgba, W, 0, H, TJPF_RGBX, &buf, &len, jpegs[i].samp, 90, jpegs[i].flags) != 0) {
            rc = 1;
            continue;
        }
        rc |= write_file(argv[1], jpegs[i].name, buf, len);
        tjFree(buf);
    }
    if (tj != NULL) {
        tjDestroy(tj);
    }
    const struct { const char *name; png_uint_32 fmt; } pngs[] = {
        {"srgb.png", PNG_FORMAT_RGB}, {"srgba.png", PNG_FORMAT_RGBA}, {"sgray.png", PNG_FORMAT_GRAY},
    };
    for (size_t i = 0; i < sizeof(pngs) / sizeof(pngs[0]); ++i) {
        png_image img;
        memset(&img, 0, sizeof(img));
        img.version = PNG_IMAGE_VERSION;
        img.width = W;
        img.height = H;
        img.format = pngs[i].fmt;
        png_alloc_size_t len = 0;
        if (!png_image_write_to_memory(&img, NULL, &len, 0, rgba, 0, NULL)) {
            rc = 1;
            continue;
        }
        void *mem = malloc(len);
        if (mem == NULL || !png_image_write_to_memory(&img, mem, &len, 0, rgba, 0, NULL)) {
            rc = 1;
        } else {
            rc |= write_file(argv[1], pngs[i].name, mem, len);
        }
        free(mem);
    }
    return rc;
}

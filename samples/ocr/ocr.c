/*
 * OCR with the PP-OCR models through the ACL model API, in plain C:
 *
 *   det  text probability map of the page (any size: a dynamic-shape model)
 *        -> DB post-processing: threshold, connected components, convex hull,
 *           minimum-area rectangle, unclip, box score
 *   crop each box with a perspective (affine for a rectangle) warp
 *   cls  0 or 180 degrees (a crop the model finds upside down is rotated)
 *   rec  per time step a distribution over the dictionary -> CTC greedy decode
 *
 *   ocr DET.om CLS.om REC.om KEYS.txt PAGE.ppm
 *
 * Prints one line per text box, top to bottom, left to right. The models
 * are .om files converted with atc using -1 dims / shape ranges, so each
 * page and each crop runs with its own shape. Images are binary PPM (P6) or
 * PGM (P5); the dictionary is ppocr_keys_v1.txt (one character per line).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acl/acl.h"

#define CHECK(expr)                                                                                                \
    do {                                                                                                           \
        aclError e_ = (expr);                                                                                      \
        if (e_ != ACL_SUCCESS) {                                                                                   \
            const char *m_ = aclGetRecentErrMsg();                                                                 \
            fprintf(stderr, "ocr: %s failed: %d %s\n", #expr, (int)e_, m_ ? m_ : "");                              \
            exit(1);                                                                                               \
        }                                                                                                          \
    } while (0)

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (p == NULL) {
        fprintf(stderr, "ocr: out of memory\n");
        exit(1);
    }
    return p;
}

/* ---- images ---- */

typedef struct image {
    int w, h;
    uint8_t *rgb; /* h * w * 3 */
} image;

static int read_token(FILE *f)
{
    int c, v = 0;
    do {
        c = fgetc(f);
        if (c == '#') {
            while (c != '\n' && c != EOF) {
                c = fgetc(f);
            }
        }
    } while (c == ' ' || c == '\n' || c == '\r' || c == '\t');
    if (c < '0' || c > '9') {
        return -1;
    }
    while (c >= '0' && c <= '9') {
        v = v * 10 + (c - '0');
        c = fgetc(f);
    }
    return v;
}

static image read_pnm(const char *path)
{
    image im = {0};
    FILE *f = fopen(path, "rb");
    char m[2];
    if (f == NULL || fread(m, 1, 2, f) != 2 || m[0] != 'P' || (m[1] != '6' && m[1] != '5')) {
        fprintf(stderr, "ocr: %s is not a binary PPM/PGM image\n", path);
        exit(1);
    }
    const int ch = m[1] == '6' ? 3 : 1;
    im.w = read_token(f);
    im.h = read_token(f);
    const int maxv = read_token(f);
    if (im.w <= 0 || im.h <= 0 || maxv != 255 || im.w > 16384 || im.h > 16384) {
        fprintf(stderr, "ocr: %s: unsupported image header\n", path);
        exit(1);
    }
    const size_t n = (size_t)im.w * (size_t)im.h;
    uint8_t *raw = xmalloc(n * (size_t)ch);
    if (fread(raw, 1, n * (size_t)ch, f) != n * (size_t)ch) {
        fprintf(stderr, "ocr: %s is truncated\n", path);
        exit(1);
    }
    fclose(f);
    im.rgb = xmalloc(n * 3);
    for (size_t i = 0; i < n; ++i) {
        for (int c = 0; c < 3; ++c) {
            im.rgb[i * 3 + (size_t)c] = raw[i * (size_t)ch + (size_t)(ch == 3 ? c : 0)];
        }
    }
    free(raw);
    return im;
}

/* Bilinear sample of channel c at (x, y) (clamped to the image). */
static float sample(const image *im, float x, float y, int c)
{
    x = x < 0 ? 0 : (x > (float)(im->w - 1) ? (float)(im->w - 1) : x);
    y = y < 0 ? 0 : (y > (float)(im->h - 1) ? (float)(im->h - 1) : y);
    const int x0 = (int)x, y0 = (int)y;
    const int x1 = x0 + 1 < im->w ? x0 + 1 : x0, y1 = y0 + 1 < im->h ? y0 + 1 : y0;
    const float fx = x - (float)x0, fy = y - (float)y0;
    const uint8_t *p = im->rgb;
    const float a = p[((size_t)y0 * (size_t)im->w + (size_t)x0) * 3 + (size_t)c];
    const float b = p[((size_t)y0 * (size_t)im->w + (size_t)x1) * 3 + (size_t)c];
    const float d = p[((size_t)y1 * (size_t)im->w + (size_t)x0) * 3 + (size_t)c];
    const float e = p[((size_t)y1 * (size_t)im->w + (size_t)x1) * 3 + (size_t)c];
    return (a * (1 - fx) + b * fx) * (1 - fy) + (d * (1 - fx) + e * fx) * fy;
}

/* ---- models ---- */

typedef struct net {
    uint32_t id;
    aclmdlDesc *desc;
} net;

static net load_net(const char *path)
{
    net n;
    CHECK(aclmdlLoadFromFile(path, &n.id));
    n.desc = aclmdlCreateDesc();
    CHECK(aclmdlGetDesc(n.desc, n.id));
    return n;
}

static void unload_net(net *n)
{
    aclmdlDestroyDesc(n->desc);
    CHECK(aclmdlUnload(n->id));
}

/*
 * Runs a one-input, one-output float model on x (dims[4], NCHW, host
 * memory); returns the output (host, malloc'd) and its dims.
 */
static float *run_net(const net *n, const float *x, const int64_t dims[4], int64_t out_dims[8], size_t *out_rank)
{
    const size_t bytes = (size_t)(dims[0] * dims[1] * dims[2] * dims[3]) * sizeof(float);
    void *d_in = NULL;
    CHECK(aclrtMalloc(&d_in, bytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(d_in, bytes, x, bytes, ACL_MEMCPY_HOST_TO_DEVICE));
    aclmdlDataset *in = aclmdlCreateDataset(), *out = aclmdlCreateDataset();
    aclDataBuffer *bi = aclCreateDataBuffer(d_in, bytes);
    CHECK(aclmdlAddDatasetBuffer(in, bi));
    aclTensorDesc *td = aclCreateTensorDesc(ACL_FLOAT, 4, dims, ACL_FORMAT_NCHW);
    CHECK(aclmdlSetDatasetTensorDesc(in, td, 0));
    aclDestroyTensorDesc(td);
    /* the output's size is not known before the run: a NULL buffer, filled by the synchronous execution */
    aclDataBuffer *bo = aclCreateDataBuffer(NULL, 0);
    CHECK(aclmdlAddDatasetBuffer(out, bo));
    CHECK(aclmdlExecute(n->id, in, out));
    aclTensorDesc *od = aclmdlGetDatasetTensorDesc(out, 0);
    *out_rank = aclGetTensorDescNumDims(od);
    for (size_t i = 0; i < *out_rank && i < 8; ++i) {
        CHECK(aclGetTensorDescDimV2(od, i, &out_dims[i]));
    }
    const size_t ob = aclGetDataBufferSizeV2(bo);
    void *d_out = aclGetDataBufferAddr(bo);
    float *y = xmalloc(ob);
    CHECK(aclrtMemcpy(y, ob, d_out, ob, ACL_MEMCPY_DEVICE_TO_HOST));
    CHECK(aclrtFree(d_out));
    CHECK(aclrtFree(d_in));
    aclDestroyDataBuffer(bi);
    aclDestroyDataBuffer(bo);
    aclmdlDestroyDataset(in);
    aclmdlDestroyDataset(out);
    return y;
}

/* ---- detection post-processing (DB) ---- */

typedef struct pt {
    float x, y;
} pt;

typedef struct box {
    pt p[4]; /* top-left, top-right, bottom-right, bottom-left (page coordinates) */
    float score;
} box;

static float cross(pt o, pt a, pt b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

static int pt_cmp(const void *a, const void *b)
{
    const pt *p = a, *q = b;
    if (p->x != q->x) {
        return p->x < q->x ? -1 : 1;
    }
    return p->y < q->y ? -1 : (p->y > q->y);
}

/* Andrew's monotone chain; hull has room for n + 1 points; returns its size. */
static size_t convex_hull(pt *pts, size_t n, pt *hull)
{
    qsort(pts, n, sizeof(pt), pt_cmp);
    size_t k = 0;
    for (size_t i = 0; i < n; ++i) {
        while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) {
            k--;
        }
        hull[k++] = pts[i];
    }
    for (size_t i = n - 1, t = k + 1; i-- > 0;) {
        while (k >= t && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) {
            k--;
        }
        hull[k++] = pts[i];
    }
    return k > 1 ? k - 1 : k;
}

/* Minimum-area rectangle around a convex polygon (one side on a hull edge). */
static void min_area_rect(const pt *h, size_t n, pt c[4])
{
    float best = INFINITY;
    for (size_t i = 0; i < n; ++i) {
        const pt a = h[i], b = h[(i + 1) % n];
        float ux = b.x - a.x, uy = b.y - a.y;
        const float len = sqrtf(ux * ux + uy * uy);
        if (len < 1e-6f) {
            continue;
        }
        ux /= len;
        uy /= len;
        float lo_u = INFINITY, hi_u = -INFINITY, lo_v = INFINITY, hi_v = -INFINITY;
        for (size_t j = 0; j < n; ++j) {
            const float dx = h[j].x - a.x, dy = h[j].y - a.y;
            const float u = dx * ux + dy * uy, v = -dx * uy + dy * ux;
            lo_u = u < lo_u ? u : lo_u;
            hi_u = u > hi_u ? u : hi_u;
            lo_v = v < lo_v ? v : lo_v;
            hi_v = v > hi_v ? v : hi_v;
        }
        const float area = (hi_u - lo_u) * (hi_v - lo_v);
        if (area < best) {
            best = area;
            const float us[4] = {lo_u, hi_u, hi_u, lo_u}, vs[4] = {lo_v, lo_v, hi_v, hi_v};
            for (int k = 0; k < 4; ++k) {
                c[k].x = a.x + us[k] * ux - vs[k] * uy;
                c[k].y = a.y + us[k] * uy + vs[k] * ux;
            }
        }
    }
    if (!(best < INFINITY)) { /* degenerate: a point or a line */
        for (int k = 0; k < 4; ++k) {
            c[k] = h[0];
        }
    }
}

/* Orders the corners: top-left, top-right, bottom-right, bottom-left. */
static void order_corners(pt c[4])
{
    pt s[4];
    memcpy(s, c, sizeof s);
    qsort(s, 4, sizeof(pt), pt_cmp); /* by x */
    pt l0 = s[0], l1 = s[1], r0 = s[2], r1 = s[3];
    if (l0.y > l1.y) {
        pt t = l0;
        l0 = l1;
        l1 = t;
    }
    if (r0.y > r1.y) {
        pt t = r0;
        r0 = r1;
        r1 = t;
    }
    c[0] = l0;
    c[1] = r0;
    c[2] = r1;
    c[3] = l1;
}

static float dist(pt a, pt b)
{
    return sqrtf((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y));
}

/* Boxes of the probability map prob[h][w] (threshold 0.3, box score 0.6, unclip 1.5), in map coordinates. */
static size_t db_boxes(const float *prob, int h, int w, box **out)
{
    const size_t n = (size_t)h * (size_t)w;
    uint8_t *seen = calloc(n, 1);
    int32_t *stack = xmalloc(n * sizeof(int32_t));
    pt *pts = xmalloc((n * 4 + 4) * sizeof(pt));
    pt *hull = xmalloc((n * 4 + 8) * sizeof(pt));
    size_t cap = 16, count = 0;
    box *boxes = xmalloc(cap * sizeof(box));
    for (size_t start = 0; start < n; ++start) {
        if (seen[start] || prob[start] <= 0.3f) {
            continue;
        }
        /* one 8-connected component */
        size_t sp = 0, np = 0, pixels = 0;
        double score = 0.0;
        stack[sp++] = (int32_t)start;
        seen[start] = 1;
        while (sp > 0) {
            const int32_t i = stack[--sp];
            const int y = i / w, x = i % w;
            score += prob[i];
            pixels++;
            /* pixel corners: the hull of the component's area */
            pts[np++] = (pt){(float)x, (float)y};
            pts[np++] = (pt){(float)x + 1, (float)y};
            pts[np++] = (pt){(float)x, (float)y + 1};
            pts[np++] = (pt){(float)x + 1, (float)y + 1};
            for (int dy = -1; dy <= 1; ++dy) {
                for (int dx = -1; dx <= 1; ++dx) {
                    const int yy = y + dy, xx = x + dx;
                    if (yy < 0 || yy >= h || xx < 0 || xx >= w) {
                        continue;
                    }
                    const size_t j = (size_t)yy * (size_t)w + (size_t)xx;
                    if (!seen[j] && prob[j] > 0.3f) {
                        seen[j] = 1;
                        stack[sp++] = (int32_t)j;
                    }
                }
            }
        }
        if (pixels < 4 || score / (double)pixels < 0.6) {
            continue;
        }
        const size_t nh = convex_hull(pts, np, hull);
        pt c[4];
        min_area_rect(hull, nh, c);
        order_corners(c);
        const float bw = dist(c[0], c[1]), bh = dist(c[0], c[3]);
        if (bw < 3 || bh < 3) {
            continue;
        }
        /* unclip: grow every side by area * ratio / perimeter */
        const float d = bw * bh * 1.5f / (2.0f * (bw + bh));
        const pt cen = {(c[0].x + c[2].x) / 2, (c[0].y + c[2].y) / 2};
        const float ux = (c[1].x - c[0].x) / bw, uy = (c[1].y - c[0].y) / bw;
        const float vx = (c[3].x - c[0].x) / bh, vy = (c[3].y - c[0].y) / bh;
        const float hw = bw / 2 + d, hh = bh / 2 + d;
        const float su[4] = {-1, 1, 1, -1}, sv[4] = {-1, -1, 1, 1};
        box b;
        for (int k = 0; k < 4; ++k) {
            b.p[k].x = cen.x + su[k] * hw * ux + sv[k] * hh * vx;
            b.p[k].y = cen.y + su[k] * hw * uy + sv[k] * hh * vy;
        }
        b.score = (float)(score / (double)pixels);
        if (count == cap) {
            cap *= 2;
            box *nb = realloc(boxes, cap * sizeof(box));
            if (nb == NULL) {
                fprintf(stderr, "ocr: out of memory\n");
                exit(1);
            }
            boxes = nb;
        }
        boxes[count++] = b;
    }
    free(seen);
    free(stack);
    free(pts);
    free(hull);
    *out = boxes;
    return count;
}

static int box_cmp(const void *a, const void *b)
{
    const box *p = a, *q = b;
    const float hp = p->p[3].y - p->p[0].y;
    if (fabsf(p->p[0].y - q->p[0].y) > 0.5f * hp) {
        return p->p[0].y < q->p[0].y ? -1 : 1;
    }
    return p->p[0].x < q->p[0].x ? -1 : (p->p[0].x > q->p[0].x);
}

/* ---- crops ---- */

/* The box as an upright image (the rectangle's corners mapped onto an axis-aligned one). */
static image crop(const image *im, const box *b)
{
    image c;
    c.w = (int)lrintf(fmaxf(dist(b->p[0], b->p[1]), dist(b->p[3], b->p[2])));
    c.h = (int)lrintf(fmaxf(dist(b->p[0], b->p[3]), dist(b->p[1], b->p[2])));
    c.w = c.w < 1 ? 1 : c.w;
    c.h = c.h < 1 ? 1 : c.h;
    c.rgb = xmalloc((size_t)c.w * (size_t)c.h * 3);
    for (int y = 0; y < c.h; ++y) {
        const float v = ((float)y + 0.5f) / (float)c.h;
        for (int x = 0; x < c.w; ++x) {
            const float u = ((float)x + 0.5f) / (float)c.w;
            /* bilinear patch over the four corners (exact for rectangles and parallelograms) */
            const float px = (1 - v) * ((1 - u) * b->p[0].x + u * b->p[1].x) + v * ((1 - u) * b->p[3].x + u * b->p[2].x);
            const float py = (1 - v) * ((1 - u) * b->p[0].y + u * b->p[1].y) + v * ((1 - u) * b->p[3].y + u * b->p[2].y);
            for (int k = 0; k < 3; ++k) {
                const float s = sample(im, px - 0.5f, py - 0.5f, k);
                c.rgb[((size_t)y * (size_t)c.w + (size_t)x) * 3 + (size_t)k] = (uint8_t)lrintf(s);
            }
        }
    }
    return c;
}

static void rotate180(image *im)
{
    const size_t n = (size_t)im->w * (size_t)im->h;
    for (size_t i = 0; i < n / 2; ++i) {
        for (int k = 0; k < 3; ++k) {
            uint8_t t = im->rgb[i * 3 + (size_t)k];
            im->rgb[i * 3 + (size_t)k] = im->rgb[(n - 1 - i) * 3 + (size_t)k];
            im->rgb[(n - 1 - i) * 3 + (size_t)k] = t;
        }
    }
}

/* A line image as a [1,3,48,W] input, (x/255 - 0.5) / 0.5, resized to height 48 (W given, padded with 0). */
static float *line_input(const image *im, int w, int content_w)
{
    const int H = 48;
    float *x = calloc((size_t)3 * H * (size_t)w, sizeof(float));
    for (int y = 0; y < H; ++y) {
        const float sy = ((float)y + 0.5f) * (float)im->h / (float)H - 0.5f;
        for (int xx = 0; xx < content_w && xx < w; ++xx) {
            const float sx = ((float)xx + 0.5f) * (float)im->w / (float)content_w - 0.5f;
            for (int k = 0; k < 3; ++k) {
                const float v = sample(im, sx, sy, k) / 255.0f;
                x[((size_t)k * H + (size_t)y) * (size_t)w + (size_t)xx] = (v - 0.5f) / 0.5f;
            }
        }
    }
    return x;
}

/* ---- dictionary and CTC ---- */

typedef struct dict {
    char **ch;
    size_t n;
} dict;

static dict load_dict(const char *path)
{
    dict d = {0};
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        fprintf(stderr, "ocr: cannot open %s\n", path);
        exit(1);
    }
    size_t cap = 8192;
    d.ch = xmalloc(cap * sizeof(char *));
    d.ch[d.n++] = ""; /* CTC blank */
    char line[256];
    while (fgets(line, sizeof line, f) != NULL) {
        line[strcspn(line, "\r\n")] = '\0';
        if (d.n + 2 >= cap) {
            break;
        }
        size_t len = strlen(line);
        d.ch[d.n] = xmalloc(len + 1);
        memcpy(d.ch[d.n++], line, len + 1);
    }
    fclose(f);
    d.ch[d.n++] = " "; /* the space PP-OCR appends */
    return d;
}

static void ctc_decode(const float *p, int64_t steps, int64_t classes, const dict *d, char *out, size_t cap)
{
    size_t at = 0;
    int64_t prev = -1;
    out[0] = '\0';
    for (int64_t t = 0; t < steps; ++t) {
        const float *row = p + t * classes;
        int64_t best = 0;
        for (int64_t c = 1; c < classes; ++c) {
            if (row[c] > row[best]) {
                best = c;
            }
        }
        if (best != 0 && best != prev && (size_t)best < d->n) {
            const size_t len = strlen(d->ch[best]);
            if (at + len + 1 < cap) {
                memcpy(out + at, d->ch[best], len + 1);
                at += len;
            }
        }
        prev = best;
    }
    /* trim the spaces at both ends */
    while (at > 0 && out[at - 1] == ' ') {
        out[--at] = '\0';
    }
    size_t lead = 0;
    while (out[lead] == ' ') {
        lead++;
    }
    memmove(out, out + lead, at - lead + 1);
}

/* ---- the pipeline ---- */

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: %s DET.om CLS.om REC.om KEYS.txt PAGE.ppm\n", argv[0]);
        return 2;
    }
    image page = read_pnm(argv[5]);
    dict keys = load_dict(argv[4]);
    CHECK(aclInit(NULL));
    CHECK(aclrtSetDevice(0));
    net det = load_net(argv[1]), cls = load_net(argv[2]), rec = load_net(argv[3]);

    /* det: the page resized to multiples of 32 (longest side at most 960), ImageNet normalization */
    float scale = 1.0f;
    const int longest = page.w > page.h ? page.w : page.h;
    if (longest > 960) {
        scale = 960.0f / (float)longest;
    }
    int dw = (int)lrintf((float)page.w * scale / 32.0f) * 32, dh = (int)lrintf((float)page.h * scale / 32.0f) * 32;
    dw = dw < 32 ? 32 : dw;
    dh = dh < 32 ? 32 : dh;
    const float mean[3] = {0.485f, 0.456f, 0.406f}, stdv[3] = {0.229f, 0.224f, 0.225f};
    float *dx = xmalloc((size_t)3 * (size_t)dh * (size_t)dw * sizeof(float));
    for (int y = 0; y < dh; ++y) {
        const float sy = ((float)y + 0.5f) * (float)page.h / (float)dh - 0.5f;
        for (int x = 0; x < dw; ++x) {
            const float sx = ((float)x + 0.5f) * (float)page.w / (float)dw - 0.5f;
            for (int k = 0; k < 3; ++k) {
                const float v = sample(&page, sx, sy, k) / 255.0f;
                dx[((size_t)k * (size_t)dh + (size_t)y) * (size_t)dw + (size_t)x] = (v - mean[k]) / stdv[k];
            }
        }
    }
    int64_t od[8];
    size_t orank = 0;
    const int64_t ddims[4] = {1, 3, dh, dw};
    float *prob = run_net(&det, dx, ddims, od, &orank);
    free(dx);
    if (orank != 4 || od[2] != dh || od[3] != dw) {
        fprintf(stderr, "ocr: det output is not [1,1,%d,%d]\n", dh, dw);
        return 1;
    }
    box *boxes = NULL;
    const size_t nb = db_boxes(prob, dh, dw, &boxes);
    free(prob);
    for (size_t i = 0; i < nb; ++i) { /* back to page coordinates */
        for (int k = 0; k < 4; ++k) {
            boxes[i].p[k].x *= (float)page.w / (float)dw;
            boxes[i].p[k].y *= (float)page.h / (float)dh;
        }
    }
    qsort(boxes, nb, sizeof(box), box_cmp);

    for (size_t i = 0; i < nb; ++i) {
        image c = crop(&page, &boxes[i]);
        /* cls: 48 x 192, the crop's width kept in proportion */
        int cw = (int)ceilf(48.0f * (float)c.w / (float)c.h);
        cw = cw > 192 ? 192 : (cw < 1 ? 1 : cw);
        float *cx = line_input(&c, 192, cw);
        const int64_t cdims[4] = {1, 3, 48, 192};
        float *cp = run_net(&cls, cx, cdims, od, &orank);
        if (cp[1] > cp[0] && cp[1] > 0.9f) {
            rotate180(&c);
        }
        free(cx);
        free(cp);
        /* rec: height 48, the width in proportion (the model takes any width) */
        int rw = (int)ceilf(48.0f * (float)c.w / (float)c.h);
        rw = rw < 16 ? 16 : (rw > 1920 ? 1920 : rw);
        rw = (rw + 7) / 8 * 8;
        float *rx = line_input(&c, rw, rw);
        const int64_t rdims[4] = {1, 3, 48, rw};
        float *rp = run_net(&rec, rx, rdims, od, &orank);
        if (orank != 3) {
            fprintf(stderr, "ocr: rec output is not [1,T,C]\n");
            return 1;
        }
        char text[4096];
        ctc_decode(rp, od[1], od[2], &keys, text, sizeof text);
        printf("%s\n", text);
        free(rx);
        free(rp);
        free(c.rgb);
    }
    free(boxes);
    unload_net(&det);
    unload_net(&cls);
    unload_net(&rec);
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    for (size_t i = 1; i + 1 < keys.n; ++i) {
        free(keys.ch[i]);
    }
    free(keys.ch);
    free(page.rgb);
    return 0;
}

/*
 * DVPP on the CPU: the descriptor objects of acl_dvpp.h, the pixel-format
 * table, picture validation, and the shared kernels. The rules enforced here
 * (ranges, stride alignment, formats) are written down in docs/dvpp.md with
 * where CANN states each; the CPU build follows the "Atlas inference (310P)"
 * profile described there.
 */
#ifndef OA_DVPP_DVPP_INTERNAL_H
#define OA_DVPP_DVPP_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"
#include "base/status.h"

/* ---- descriptor objects (public opaque types) ---- */

struct acldvppPicDesc {
    void *data;
    uint32_t size;
    uint32_t format; /* acldvppPixelFormat */
    uint32_t width;
    uint32_t height;
    uint32_t width_stride;
    uint32_t height_stride;
    uint32_t ret_code;
};

struct acldvppBatchPicDesc {
    uint32_t count;
    acldvppPicDesc pics[]; /* count entries */
};

struct acldvppRoiConfig {
    uint32_t left, right, top, bottom; /* inclusive */
};

struct acldvppResizeConfig {
    uint32_t interpolation;
};

struct acldvppJpegeConfig {
    uint32_t level;
};

#define OA_DVPP_BORDER_VALUES 4u
struct acldvppBorderConfig {
    uint32_t type; /* acldvppBorderType */
    uint32_t top, bottom, left, right;
    double value[OA_DVPP_BORDER_VALUES];
};

#define OA_DVPP_COMPONENTS 3u
#define OA_DVPP_BINS 256u
struct acldvppLutMap {
    uint32_t dims;
    uint8_t map[OA_DVPP_COMPONENTS][OA_DVPP_BINS];
};

struct acldvppHist {
    uint32_t dims;
    uint32_t ret_code;
    uint32_t bins[OA_DVPP_COMPONENTS][OA_DVPP_BINS];
};

struct acldvppChannelDesc {
    uint32_t mode; /* DVPP_CHNMODE_* bits, 0 = every engine */
    uint32_t csc;  /* acldvppCscMatrix */
    uint64_t channel_id;
    bool created;
};

struct acldvppStreamDesc {
    void *data;
    uint32_t size;
    uint32_t format;
    uint64_t timestamp;
    uint32_t ret_code;
    uint8_t eos;
};

/* ---- pixel formats ---- */

typedef enum oa_dvpp_layout {
    OA_DVPP_LAYOUT_Y = 0,  /* YUV400: one 1-byte plane */
    OA_DVPP_LAYOUT_SP,     /* semi-planar YUV: Y plane + interleaved chroma plane */
    OA_DVPP_LAYOUT_PACKED, /* one plane of bpp-byte pixels */
} oa_dvpp_layout;

typedef enum oa_dvpp_family {
    OA_DVPP_FAMILY_YUV = 0,
    OA_DVPP_FAMILY_RGB,
} oa_dvpp_family;

typedef struct oa_dvpp_fmt {
    uint32_t format;
    const char *name;
    oa_dvpp_layout layout;
    oa_dvpp_family family;
    uint8_t bpp;     /* bytes per pixel of plane 0 (packed 422: 2 per pixel) */
    uint8_t sub_w;   /* chroma subsampling shift, SP only (420: 1/1, 422: 1/0, 444: 0/0, 440: 0/1) */
    uint8_t sub_h;
    uint8_t swap_uv; /* SP: chroma stored V first; packed 422: see order */
    uint8_t order[4]; /* packed: byte index of (R,G,B,A) or (Y0,U,Y1,V) / (Y,U,V) within a pixel (group) */
    bool packed422;   /* YUYV-style: 2 pixels share one U and one V in 4 bytes */
    bool alpha;
} oa_dvpp_fmt;

/* Table entry of a format, NULL for formats DVPP on the CPU does not handle. */
const oa_dvpp_fmt *oa_dvpp_fmt_find(uint32_t format);

/* Name for messages ("YUV420SP_NV12", ...); "format <n>" style text for unknown values. */
const char *oa_dvpp_fmt_name(uint32_t format);

/* Bytes of a ws x hs buffer of this format (ws already in bytes); false on overflow. */
bool oa_dvpp_fmt_bytes(const oa_dvpp_fmt *f, uint32_t ws, uint32_t hs, size_t *out);

/* ---- validated pictures ---- */

/* Start alignment of every picture buffer (acldvppMalloc's; docs/dvpp.md "Memory"). */
#define OA_DVPP_ADDR_ALIGN 128u

/* Limits one engine applies to one side (input or output) of an operation. */
typedef struct oa_dvpp_rules {
    const char *engine; /* "VPC", "JPEGD", ... for messages */
    const char *side;   /* "input" / "output" */
    uint32_t min_w, min_h, max_w, max_h;
    uint32_t ws_align; /* widthStride multiple (bytes), 0 = any */
    uint32_t hs_align; /* heightStride multiple, 0 = any */
    uint32_t min_ws, max_ws, min_hs, max_hs;
    bool round_odd_down; /* odd width/height of a subsampled format rounded down instead of refused */
} oa_dvpp_rules;

/* A snapshot of a checked picture description. */
typedef struct oa_dvpp_pic {
    uint8_t *data;
    size_t bytes; /* buffer bytes the format needs for ws x hs (<= desc size) */
    const oa_dvpp_fmt *fmt;
    uint32_t w, h, ws, hs;
} oa_dvpp_pic;

/* One plane of a picture: w x h pixels of ch bytes each, rows pitch bytes apart. */
typedef struct oa_dvpp_plane {
    uint8_t *p;
    size_t pitch;
    uint32_t w, h, ch;
    uint8_t sub_w, sub_h; /* shift from picture to plane coordinates */
} oa_dvpp_plane;

/*
 * Checks desc against the rules (format known, geometry, stride alignment,
 * size >= what the format needs, buffer from acldvppMalloc large enough) and
 * snapshots it. Reports the first violation with OA_FAIL(OA_E_PARAM).
 */
oa_status oa_dvpp_pic_check(const acldvppPicDesc *desc, const oa_dvpp_rules *rules, oa_dvpp_pic *out) OA_MUST_CHECK;

/* Checks that [p, p + bytes) lies in one block of device memory (acldvppMalloc / aclrtMalloc*). */
oa_status oa_dvpp_buffer_check(const void *p, size_t bytes, const char *what) OA_MUST_CHECK;

/* The planes of a picture (1 or 2; packed 422 is one plane of 2-byte pixels); returns the count. */
int oa_dvpp_pic_planes(const oa_dvpp_pic *pic, oa_dvpp_plane planes[2]);

/* Rules of the VPC engine (docs/dvpp.md "VPC"). */
extern const oa_dvpp_rules oa_dvpp_vpc_in_rules;
/*
 * 310P: a VPC input wider or taller than 4096 must be YUV400 or a 4:2:0 / 4:2:2 / 4:4:4
 * semi-planar format (docs/dvpp.md "VPC limits"); ACL_ERROR_INVALID_PARAM otherwise.
 */
oa_status oa_dvpp_vpc_8k_check(const oa_dvpp_pic *in) OA_MUST_CHECK;
extern const oa_dvpp_rules oa_dvpp_vpc_out_rules;

/* ---- channels ---- */

/* Checks that desc is a created channel that has the engine bit (DVPP_CHNMODE_*) enabled. */
oa_status oa_dvpp_channel_check(const acldvppChannelDesc *desc, uint32_t engine_bit) OA_MUST_CHECK;

/* ---- stream tasks ---- */

typedef oa_status (*oa_dvpp_job_run)(void *job);

/*
 * Queues job on stream (NULL = the default stream). run executes on the
 * stream's worker, then job is freed with free(). On a submission failure
 * the job is freed here and the status returned.
 */
oa_status oa_dvpp_submit(aclrtStream stream, oa_dvpp_job_run run, void *job) OA_MUST_CHECK;

/* ---- kernels shared by the VPC operations (pictures already checked) ---- */

typedef struct oa_dvpp_rect {
    uint32_t x, y, w, h;
} oa_dvpp_rect;

/* Resize / interpolation modes understood by oa_dvpp_resize (docs/dvpp.md "Interpolation"). */
typedef enum oa_dvpp_interp {
    OA_DVPP_INTERP_BILINEAR_CV = 1,
    OA_DVPP_INTERP_NEAREST_CV = 2,
    OA_DVPP_INTERP_BILINEAR_TF = 3,
    OA_DVPP_INTERP_NEAREST_TF = 4,
} oa_dvpp_interp;

/* Maps acldvppResizeConfig's value (NULL config = default) to a mode; OA_E_PARAM for the rest. */
oa_status oa_dvpp_interp_from_config(const acldvppResizeConfig *cfg, oa_dvpp_interp *out) OA_MUST_CHECK;

/*
 * Resizes the region src_r of in into the region dst_r of out (same format,
 * or NV12 <-> NV21), plane by plane; pixels of out outside dst_r are left as
 * they are.
 */
oa_status oa_dvpp_resize(const oa_dvpp_pic *in, oa_dvpp_rect src_r, const oa_dvpp_pic *out, oa_dvpp_rect dst_r,
                         oa_dvpp_interp mode) OA_MUST_CHECK;

/*
 * Fills the border of pic around its rectangle inner (already holding the
 * picture) as cfg says: constant value[k] per component (Y, U, V for YUV;
 * byte order for packed formats) or OpenCV's replicate / reflect / reflect-101.
 */
void oa_dvpp_border_fill(const oa_dvpp_pic *pic, oa_dvpp_rect inner, const acldvppBorderConfig *cfg);


/*
 * Converts in into out (same size, any two formats of the table) with the
 * colour matrix csc_matrix (acldvppCscMatrix) for YUV <-> RGB (dvpp_color.c).
 */
oa_status oa_dvpp_convert(const oa_dvpp_pic *in, const oa_dvpp_pic *out, uint32_t csc_matrix) OA_MUST_CHECK;

/* Fills *out with a copy of the full picture rectangle. */
static inline oa_dvpp_rect oa_dvpp_full_rect(const oa_dvpp_pic *p)
{
    oa_dvpp_rect r = {0, 0, p->w, p->h};
    return r;
}

/* Align helper for 32-bit geometry (no overflow for values below 2^31). */
static inline uint32_t oa_dvpp_align(uint32_t v, uint32_t a)
{
    return (v + a - 1u) / a * a;
}

#endif /* OA_DVPP_DVPP_INTERNAL_H */

/*
 * VDEC (aclvdec*): the channel description object and the decoding channel
 * behind it (vdec.c, over FFmpeg's libavcodec). Rules: docs/dvpp.md "VDEC".
 */
#ifndef OA_DVPP_VDEC_INTERNAL_H
#define OA_DVPP_VDEC_INTERNAL_H

#include <stdint.h>

#include "dvpp/dvpp_internal.h"

typedef struct oa_vdec_chan oa_vdec_chan;

struct aclvdecChannelDesc {
    uint32_t channel_id;
    uint64_t thread_id;
    aclvdecCallback callback;
    uint32_t en_type;    /* acldvppStreamFormat */
    uint32_t out_format; /* acldvppPixelFormat */
    uint32_t out_width, out_height;
    uint32_t ref_frame_num;
    uint32_t bit_depth;
    uint32_t out_mode;
    uint32_t csc;
    oa_vdec_chan *chan; /* set between aclvdecCreateChannel and aclvdecDestroyChannel */
};

struct aclvdecFrameConfig {
    uint32_t reserved;
};

#endif /* OA_DVPP_VDEC_INTERNAL_H */

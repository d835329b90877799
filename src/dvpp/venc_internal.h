/* VENC (aclvenc*): the channel description and frame configuration objects (docs/dvpp.md "VENC"). */
#ifndef OA_DVPP_VENC_INTERNAL_H
#define OA_DVPP_VENC_INTERNAL_H

#include <stdint.h>

#include "dvpp/dvpp_internal.h"

typedef struct oa_venc_chan oa_venc_chan;

/* rcMode values (docs/dvpp.md "VENC"): 0 the default (VBR on 310P), 1 VBR, 2 CBR. */
#define VENC_RC_DEFAULT 0u
#define VENC_RC_VBR 1u
#define VENC_RC_CBR 2u

struct aclvencChannelDesc {
    uint64_t thread_id;
    aclvencCallback callback;
    uint32_t pic_format; /* acldvppPixelFormat */
    uint32_t en_type;    /* acldvppStreamFormat */
    uint32_t pic_width, pic_height;
    uint32_t key_frame_interval;
    void *buf_addr;
    uint32_t buf_size;
    uint32_t rc_mode;
    uint32_t src_rate;
    uint32_t max_bit_rate;
    uint32_t max_ip_prop;
    uint32_t channel_id;
    oa_venc_chan *chan; /* set between aclvencCreateChannel and aclvencDestroyChannel */
};

struct aclvencFrameConfig {
    uint8_t force_i_frame;
    uint8_t eos;
};

#endif /* OA_DVPP_VENC_INTERNAL_H */

/*
 * The application-visible objects of acl_mdl.h (model descriptions,
 * datasets, load and execute configurations, dynamic-AIPP parameter sets),
 * laid out for the executors and the loader.
 */
#ifndef OA_ACL_MDL_MDL_OBJECTS_H
#define OA_ACL_MDL_MDL_OBJECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_mdl.h"
#include "acl_base/data_buffer.h"
#include "acl_mdl/model.h"
#include "acl_mdl/model_info.h"

/* ---- aclmdlDesc ---- */

typedef struct oa_desc_attr {
    char *op_name;
    char *attr_name;
    char *value;
} oa_desc_attr;

struct aclmdlDesc {
    uint32_t model_id;   /* the loaded model it was filled from; 0 for file / memory descriptions */
    oa_model_info *info; /* one reference; NULL while empty */
    oa_desc_attr *attrs; /* aclmdlGetOpAttr answers, owned by the description */
    size_t n_attrs;
};

/* Empties a description (CANN clears it at the start of every GetDesc*). */
void oa_mdl_desc_clear(aclmdlDesc *desc);

/* Makes desc describe info (takes a new reference) for model_id. */
void oa_mdl_desc_fill(aclmdlDesc *desc, oa_model_info *info, uint32_t model_id);

/* ---- aclmdlDataset ---- */

typedef struct oa_dataset_slot {
    aclDataBuffer *buffer;  /* the application's, never owned */
    aclTensorDesc *desc;    /* owned (1-element array of tensor_desc.h) or NULL */
} oa_dataset_slot;

struct aclmdlDataset {
    oa_dataset_slot *slots;
    size_t count;
    size_t cap;
    /* the gear recorded by the dynamic setters (CANN keeps it in the dataset for V1 execution) */
    uint64_t dynamic_batch;
    uint64_t dynamic_height;
    uint64_t dynamic_width;
    size_t n_dynamic_dims;
    uint64_t dynamic_dims[ACL_MAX_DIM_CNT];
};

/* Executors reach datasets through the accessors of model.h. */

/* ---- aclmdlConfigHandle ---- */

/* Bit for attribute a (0..ACL_NPU_PERF_MODE) in aclmdlConfigHandle.set. */
#define OA_CFG_BIT(a) (UINT64_C(1) << (unsigned)(a))

struct aclmdlConfigHandle {
    uint64_t set; /* OA_CFG_BIT of every attribute set (CANN's attrState) */
    int32_t priority;
    size_t load_type;
    char *load_path;      /* deep copy */
    void *mdl_addr;
    size_t mdl_size;
    void *work_ptr;
    size_t work_size;
    void *weight_ptr;
    size_t weight_size;
    const uint32_t *input_q;
    size_t input_q_num;
    const uint32_t *output_q;
    size_t output_q_num;
    size_t reuse_zero_copy;
    char *weight_path;    /* deep copy */
    bool without_graph;
    oa_external_weight *weights; /* aclmdlSetExternalWeightAddress, in call order */
    size_t n_weights;
    size_t cap_weights;
};

/* ---- aclmdlExecConfigHandle ---- */

struct aclmdlExecConfigHandle {
    int32_t stream_sync_timeout; /* -1 */
    int32_t event_sync_timeout;  /* -1 */
};

/*
 * The timeouts the last aclmdlExecuteV2 wrote into GE's global context
 * (sticky, process-wide; -1 until then). Executors of aclmdlExecute and
 * aclmdlExecuteAsync read them.
 */
void oa_mdl_exec_timeouts(int32_t *stream_sync_timeout, int32_t *event_sync_timeout);

/* ---- aclmdlAIPP: GE's dynamic-AIPP parameter block ---- */

/* kAippDynamicBatchPara: 96 bytes per image. */
typedef struct oa_aipp_batch_para {
    int8_t crop_switch;
    int8_t scf_switch;
    int8_t padding_switch;
    int8_t rotate_switch;
    int8_t reserve0[4];
    int32_t crop_start_pos_w;
    int32_t crop_start_pos_h;
    int32_t crop_size_w;
    int32_t crop_size_h;
    int32_t scf_input_size_w;
    int32_t scf_input_size_h;
    int32_t scf_output_size_w;
    int32_t scf_output_size_h;
    int32_t padding_size_top;
    int32_t padding_size_bottom;
    int32_t padding_size_left;
    int32_t padding_size_right;
    int16_t dtc_pixel_mean_chn[4];
    uint16_t dtc_pixel_min_chn[4];      /* fp16 */
    uint16_t dtc_pixel_var_reci_chn[4]; /* fp16 */
    int8_t reserve1[16];
} oa_aipp_batch_para;

/* The 64-byte head of kAippDynamicPara (the buffer is head + batch * 96). */
typedef struct oa_aipp_para {
    uint8_t input_format; /* CCE code (see aclmdlSetAIPPInputFormat) */
    int8_t csc_switch;
    int8_t rbuv_swap_switch;
    int8_t ax_swap_switch;
    int8_t batch_num;
    int8_t reserve1[3];
    int32_t src_image_size_w;
    int32_t src_image_size_h;
    int16_t csc_matrix[9]; /* r0c0 r0c1 r0c2 r1c0 ... r2c2 */
    int16_t reserve2[3];
    uint8_t csc_output_bias[3];
    uint8_t csc_input_bias[3];
    uint8_t reserve3[2];
    int8_t reserve4[16];
} oa_aipp_para;

#define OA_AIPP_HEAD_SIZE 64u
#define OA_AIPP_BATCH_SIZE 96u

struct aclmdlAIPP {
    uint64_t batch_size;
    oa_aipp_para params;
    oa_aipp_batch_para *batch; /* batch_size entries */
};

/* GE's CceAippInputFormat codes written into the block. */
enum {
    OA_CCE_YUV420SP_U8 = 1,
    OA_CCE_XRGB8888_U8 = 2,
    OA_CCE_NC1HWC0DI_FP16 = 3,
    OA_CCE_NC1HWC0DI_S8 = 4,
    OA_CCE_RGB888_U8 = 5,
    OA_CCE_ARGB8888_U8 = 6,
    OA_CCE_YUYV_U8 = 7,
    OA_CCE_YUV422SP_U8 = 8,
    OA_CCE_AYUV444_U8 = 9,
    OA_CCE_YUV400_U8 = 10,
    OA_CCE_RAW10 = 11,
    OA_CCE_RAW12 = 12,
    OA_CCE_RAW16 = 13,
    OA_CCE_RAW24 = 16
};

/*
 * GE's checks of a parameter set against the NPU architecture (NpuArch of
 * the configured SoC, e.g. 2201), as aclmdlSetInputAIPP runs them
 * (AippParamsCheck): input format, csc, source size, per-image crop and
 * output sizes. OA_E_PARAM with a message on the first failure.
 */
oa_status oa_mdl_aipp_params_check(const aclmdlAIPP *aipp, int32_t npu_arch) OA_MUST_CHECK;

/* GE's GetAippOutputHW for image batch_index (padding adds, arch limits W to 1080 on some NPUs). */
oa_status oa_mdl_aipp_output_hw(const aclmdlAIPP *aipp, size_t batch_index, int32_t npu_arch, int32_t *w,
                            int32_t *h) OA_MUST_CHECK;

/* GE's GetSrcImageSize: bytes of the source images the parameters describe (0 on overflow). */
uint64_t oa_mdl_aipp_src_image_size(const aclmdlAIPP *aipp);

/* Writes head + batch entries into out[*len] (head + batch_size * 96 bytes). */
void oa_mdl_aipp_pack(const aclmdlAIPP *aipp, uint8_t *out, size_t *len);

#endif /* OA_ACL_MDL_MDL_OBJECTS_H */

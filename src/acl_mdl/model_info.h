/*
 * oa_model_info: everything the model layer knows about a model without
 * running it. It is what aclmdlGetDesc / aclmdlGetDescFromFile /
 * aclmdlGetDescFromMem expose through aclmdlDesc, what the dynamic-gear
 * setters validate against, and what an executor starts from.
 *
 * Who fills it
 *   - the .om reader side: oa_model_info_from_om() (model_info_om.c, once
 *     src/om is merged) builds it from the root MODEL_INOUT_INFO partition
 *     (inputs, outputs, gears, `_dynamic_output_dims`, user designate shape
 *     order) and from the ModelDef (AIPP attributes of the Data nodes,
 *     `_datadump_original_op_names` of the ops, header "dynamic" flag);
 *   - tests build it by hand with the oa_model_info_add_* helpers below.
 * Everything is copied in: a model_info never points into an .om image.
 *
 * Lifetime: created with refcount 1 by oa_model_info_create(); shared by
 * reference (the model table entry, every aclmdlDesc filled from it, the
 * executor) with oa_model_info_retain/release. Once it has been handed to
 * the table or to a desc it is IMMUTABLE and may be read from any thread
 * without a lock. Per-model mutable state (the current dynamic gear, the
 * priority) lives in the model table entry, not here.
 *
 * Conventions (CANN's, so the getters can return fields as they are):
 *   - dtype uses aclDataType numbering (= GE DataType for every value ACL
 *     knows); GE's DT_UNDEFINED (28) must be stored as ACL_DT_UNDEFINED.
 *   - format uses aclFormat numbering (= GE Format); GE's FORMAT_RESERVED
 *     (40) must be stored as ACL_FORMAT_UNDEFINED. Sub-format bits, if any,
 *     are kept as the model stores them (CANN casts the raw value).
 *   - dims: -1 is an unknown dimension, [-2] an unknown rank, [] a scalar.
 *     For gear models (batch / HW / dims) the INPUT dims hold -1 at the
 *     dynamic axes (GE's `_mbatch_origin_input_dims`), and the OUTPUT dims
 *     are those of the largest gear.
 *   - dims_v2: the dims before a static AIPP (GE attr `input_dims`), else a
 *     copy of dims. aclmdlGetInputDimsV2 returns it.
 *   - ranges: the origin shape range, one {min,max} per dim (max -1 =
 *     unbounded); empty for static tensors and gear models.
 *   - size: the byte size the model stores (for gear models the size of the
 *     largest gear, for dynamic-shape tensors 0 or the max-shape size).
 *     aclmdlGet{Input,Output}SizeByIndex answer oa_model_tensor_size().
 */
#ifndef OA_ACL_MDL_MODEL_INFO_H
#define OA_ACL_MDL_MODEL_INFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_mdl.h"
#include "base/status.h"

/* tensor flags */
#define OA_TENSOR_GEAR_INPUT 0x1u        /* the ascend_mbatch_shape_data input (gear selector) */
#define OA_TENSOR_DYNAMIC_AIPP_DATA 0x2u /* an ascend_dynamic_aipp_data input (AIPP parameter block) */

/* Dynamic kinds, numbered as GE's mbatch_dynamic_type / DynamicInputType. */
typedef enum oa_model_dynamic_kind {
    OA_DYNAMIC_NONE = 0,  /* static model, or dynamic shape without gears */
    OA_DYNAMIC_BATCH = 1, /* gears of one value: the batch */
    OA_DYNAMIC_HW = 2,    /* gears of two values: height, width */
    OA_DYNAMIC_DIMS = 3   /* gears of k values: the dynamic axes, in user_designate_shape_order */
} oa_model_dynamic_kind;

typedef struct oa_model_range {
    int64_t min;
    int64_t max; /* -1: unbounded */
} oa_model_range;

/*
 * GE's InputOutputDims: one shape of an AIPP input before or after AIPP, for
 * one gear (aclAippDims).
 */
typedef struct oa_model_io_dims {
    char *name; /* may be NULL (then aclmdlIODims.name is left alone, as CANN) */
    size_t n_dims;
    int64_t *dims;
    size_t size; /* bytes */
} oa_model_io_dims;

/*
 * GE's AippConfigInfo (the AIPP configuration compiled into the model), in
 * aclAippInfo order, plus the two fields the dynamic-AIPP checks need.
 */
typedef struct oa_model_aipp_config {
    int32_t input_format; /* aclAippInputFormat value */
    int32_t src_image_size_w, src_image_size_h;
    int8_t crop;
    int32_t load_start_pos_w, load_start_pos_h, crop_size_w, crop_size_h;
    int8_t resize;
    int32_t resize_output_w, resize_output_h;
    int8_t padding;
    int32_t left_padding_size, right_padding_size, top_padding_size, bottom_padding_size;
    int8_t csc_switch, rbuv_swap_switch, ax_swap_switch, single_line_mode;
    int32_t matrix[9];     /* r0c0 r0c1 r0c2 r1c0 ... r2c2 */
    int32_t output_bias[3];
    int32_t input_bias[3];
    int32_t mean_chn[4];
    float min_chn[4];
    float var_reci_chn[4];
    uint32_t related_input_rank; /* dynamic AIPP: the data input whose shape AIPP produces */
    uint32_t max_src_image_size; /* dynamic AIPP: bytes; aclmdlSetInputAIPP refuses bigger images */
} oa_model_aipp_config;

/* AIPP facts of one model input (NULL pointer in oa_model_tensor = no AIPP at all). */
typedef struct oa_model_aipp {
    aclmdlInputAippType type;      /* GE's InputAippType */
    size_t attached_index;         /* DATA_WITH_DYNAMIC_AIPP: its AIPP data input, else ACL_INVALID_NODE_INDEX */
    bool has_config;               /* false: aclmdlGetFirstAippInfo answers ACL_ERROR_GE_AIPP_NOT_EXIST */
    oa_model_aipp_config config;
    aclFormat src_format;          /* GE OriginInputInfo */
    aclDataType src_dtype;
    size_t src_dim_num;
    size_t n_shapes;               /* GE GetAllAippInputOutputDims: one entry per gear */
    oa_model_io_dims *in_dims;     /* before AIPP */
    oa_model_io_dims *out_dims;    /* after AIPP */
} oa_model_aipp;

typedef struct oa_model_tensor {
    char *name; /* real name (NUL-terminated, never NULL, may be longer than 127) */
    aclDataType dtype;
    aclFormat format;
    size_t size;
    size_t n_dims;
    int64_t *dims;
    size_t n_dims_v2;
    int64_t *dims_v2;
    size_t n_ranges;
    oa_model_range *ranges;
    uint32_t flags;      /* OA_TENSOR_* */
    oa_model_aipp *aipp; /* inputs only; NULL: the input has no AIPP */
} oa_model_tensor;

/* One parsed `_dynamic_output_dims` string: [gear (-1 = every gear), output index, dims...]. */
typedef struct oa_model_output_shape {
    size_t n;
    int64_t *v;
} oa_model_output_shape;

/*
 * A list-of-strings operator attribute kept for aclmdlGetOpAttr (GE keeps
 * only _datadump_original_op_names, the names of the framework ops fused
 * into op_name).
 */
typedef struct oa_model_op_attr {
    char *op_name;
    char *attr_name;
    size_t n_values;
    char **values;
} oa_model_op_attr;

/* Which runtime runs the model (GE: DavinciModel vs RT2 ModelV2Executor). */
typedef enum oa_model_route {
    OA_ROUTE_V1 = 1, /* static ("task sink") executor, model ids from 1 */
    OA_ROUTE_V2 = 2  /* dynamic-shape executor (same model-id counter as V1) */
} oa_model_route;

typedef struct oa_model_info {
    int refcount; /* atomic; use retain/release */

    size_t n_inputs;
    oa_model_tensor *inputs;
    size_t n_outputs;
    oa_model_tensor *outputs;

    /* dynamic gears */
    oa_model_dynamic_kind dynamic_kind;
    size_t n_gears;
    size_t gear_len;  /* values per gear (1 batch, 2 HW, k dims) */
    uint64_t *gears;  /* n_gears * gear_len, gear-major */
    size_t gear_input; /* index of the ascend_mbatch_shape_data input, SIZE_MAX when none */
    size_t n_shape_order;
    char **shape_order; /* user_designate_shape_order: Data names whose dims form a dims gear */
    size_t n_output_shapes;
    oa_model_output_shape *output_shapes; /* parsed `_dynamic_output_dims`, in model order */

    /* header facts */
    bool header_dynamic; /* OM header: version >= 2.0 and (model_num > 1 or is_unknow_model) */
    oa_model_route route; /* decided at load (header_dynamic + ENABLE_RUNTIME_V2); V1 for descs from file */

    size_t n_op_attrs;
    oa_model_op_attr *op_attrs;
} oa_model_info;

/* ---- construction (single-threaded, before the info is shared) ---- */

/* Empty info, refcount 1, route V1, no gear input. NULL on OOM (error recorded). */
oa_model_info *oa_model_info_create(void);

/*
 * Appends an input / output (deep copies of every array; dims_v2 NULL with
 * n_dims_v2 0 means "same as dims"). [out] index (optional): its index.
 * An input whose name is ACL_DYNAMIC_TENSOR_NAME gets OA_TENSOR_GEAR_INPUT
 * and becomes gear_input; ACL_DYNAMIC_AIPP_NAME gets OA_TENSOR_DYNAMIC_AIPP_DATA.
 */
typedef struct oa_model_tensor_spec {
    const char *name;
    aclDataType dtype;
    aclFormat format;
    size_t size;
    size_t n_dims;
    const int64_t *dims;
    size_t n_dims_v2;
    const int64_t *dims_v2;
    size_t n_ranges;
    const oa_model_range *ranges;
} oa_model_tensor_spec;

oa_status oa_model_info_add_input(oa_model_info *info, const oa_model_tensor_spec *spec, size_t *index) OA_MUST_CHECK;
oa_status oa_model_info_add_output(oa_model_info *info, const oa_model_tensor_spec *spec, size_t *index) OA_MUST_CHECK;

/* Deep-copies aipp (its arrays too) into input index. */
oa_status oa_model_info_set_aipp(oa_model_info *info, size_t index, const oa_model_aipp *aipp) OA_MUST_CHECK;

/*
 * Sets the gears the way CANN's model description derives them from GE's
 * (dynamic type, batch info): type DIMS keeps every gear as a dims gear
 * (all gears must have the same length); otherwise a first gear of one
 * value means batch gears, of two values HW gears (all gears of that
 * length). No gears: the model has no dynamic kind. Anything else is
 * OA_E_GE_FAILURE (ACL_ERROR_GE_FAILURE), as aclmdlGetDesc reports it.
 * gears[i] has lens[i] values.
 */
oa_status oa_model_info_set_gears(oa_model_info *info, int32_t ge_dynamic_type, size_t n_gears,
                                  const size_t *lens, const int64_t *const *gears) OA_MUST_CHECK;

/* Copies the user_designate_shape_order names. */
oa_status oa_model_info_set_shape_order(oa_model_info *info, size_t n, const char *const *names) OA_MUST_CHECK;

/* Parses and appends one `_dynamic_output_dims` string (len bytes, need not be NUL-terminated). */
oa_status oa_model_info_add_output_shape(oa_model_info *info, const char *s, size_t len) OA_MUST_CHECK;

/* Records op_name's list attribute attr_name = values[n] (a later duplicate is ignored). */
oa_status oa_model_info_add_op_attr(oa_model_info *info, const char *op_name, const char *attr_name, size_t n,
                                    const char *const *values) OA_MUST_CHECK;

/* ---- sharing ---- */

oa_model_info *oa_model_info_retain(oa_model_info *info);
void oa_model_info_release(oa_model_info *info); /* NULL is ignored */

/* ---- pure queries (no table, no locks) ---- */

/*
 * GE's parser of a `_dynamic_output_dims` string: digits accumulate into a
 * number, a '-' makes the current number negative, any other byte ends the
 * number (so "1:0:4:1000" -> [1,0,4,1000], "-1:1:1:1" -> [-1,1,1,1],
 * "" -> [0], "1::2" -> [1,0,2]). *out is malloc'd (never NULL on success).
 */
oa_status oa_model_parse_output_shape(const char *s, size_t len, int64_t **out, size_t *n) OA_MUST_CHECK;

/*
 * aclmdlGet{Input,Output}SizeByIndex for one tensor: when a dim is negative
 * and the tensor has ranges, dtype size * product of the range maxima (0 if
 * a maximum is <= 0 or the product overflows); otherwise the stored size.
 */
size_t oa_model_tensor_size(const oa_model_tensor *t);

/*
 * The name aclmdlGet{Input,Output}Dims report for tensor idx: the real name
 * when it fits aclmdlIODims.name (<= 127 bytes), else
 * "acl_modelId_<model_id>_{input,output}_<idx>", with "_<letters>" appended
 * (a..z, aa.., up to three letters) when that collides with a real tensor
 * name. out has ACL_MAX_TENSOR_NAME_LEN bytes.
 */
void oa_model_io_name(const oa_model_info *info, uint32_t model_id, bool is_input, size_t idx,
                      char out[ACL_MAX_TENSOR_NAME_LEN]);

/*
 * aclmdlGet{Input,Output}Dims (v2: aclmdlGetInputDimsV2) of tensor idx < count:
 * the name (oa_model_io_name), then dims / dimCount;
 * OA_E_STORAGE_OVER_LIMIT (name already written) beyond ACL_MAX_DIM_CNT dims.
 */
oa_status oa_model_get_io_dims(const oa_model_info *info, uint32_t model_id, bool is_input, bool v2, size_t idx,
                           aclmdlIODims *dims) OA_MUST_CHECK;

/*
 * aclmdlGetTensorRealName: a real tensor name equal to name (inputs first),
 * else the real name a synthesized "acl_modelId_<id>_{input,output}_<i>[_x]"
 * stands for (id must equal model_id); NULL when neither.
 */
const char *oa_model_real_tensor_name(const oa_model_info *info, uint32_t model_id, const char *name);

/* Index of the gear equal to values[n] (n must equal gear_len); false when none. */
bool oa_model_find_gear(const oa_model_info *info, const uint64_t *values, size_t n, size_t *gear);

/*
 * GetCurGearIndex + GetCurOuputShapeInfo of CANN's aclmdlGetCurOutputDims:
 * the gear matching cur[n] selected by kind (DIMS: a dims gear; otherwise
 * n == 1 a batch gear, n == 2 an HW gear), then the first
 * `_dynamic_output_dims` entry with that gear (or gear -1) and output index
 * fills dims->dims/dimCount (dims->name is not touched). OA_E_FAILURE when
 * no gear or no entry matches or an entry has fewer than 2 or more than
 * 2 + ACL_MAX_DIM_CNT values.
 */
oa_status oa_model_cur_output_dims(const oa_model_info *info, oa_model_dynamic_kind kind, const uint64_t *cur,
                                   size_t n, size_t output, aclmdlIODims *dims) OA_MUST_CHECK;

/*
 * The gear values a dims request selects (GE GetCurDynamicDims): the input
 * dims of the Data inputs named in the shape order, concatenated; user[n]
 * must have exactly that many values (else OA_E_GE_DYN_INPUT_LENGTH), match
 * at every static position (else OA_E_GE_DYN_INPUT_LENGTH), and the values
 * at the -1 positions form *out (malloc'd, *n_out values; may be 0).
 */
oa_status oa_model_dims_request_to_gear(const oa_model_info *info, const uint64_t *user, size_t n, uint64_t **out,
                                        size_t *n_out) OA_MUST_CHECK;

/*
 * GE's answer to "attribute attr_name of op op_name" of a loaded model: the
 * values joined as "[<len>]<value>" each; "" when the model has no such op
 * or attribute. *out is malloc'd.
 */
oa_status oa_model_op_attr_value(const oa_model_info *info, const char *op_name, const char *attr_name,
                                 char **out) OA_MUST_CHECK;

/* Input index whose name equals name; false when none. */
bool oa_model_find_input(const oa_model_info *info, const char *name, size_t *index);

#endif /* OA_ACL_MDL_MODEL_INFO_H */

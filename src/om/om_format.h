/*
 * The CANN offline-model container (.om): byte layout, reader and writer.
 *
 * ===================================================================
 *  1. File layout
 * ===================================================================
 *  All integers are little-endian. A file is
 *
 *      [header: 256 bytes][table 0][partitions of table 0]
 *                         [table 1][partitions of table 1] ...
 *
 *  packed back to back, no padding anywhere. "Data" below means every
 *  byte after the header; its size L must equal file size - 256.
 *
 * ===================================================================
 *  2. Header (256 bytes, natural C layout of CANN's ModelFileHeader)
 * ===================================================================
 *   off size field                   written by us / by ATC
 *     0   4  magic                   0x444F4D49 ("IMOD" on disk)
 *     4   4  headsize                256
 *     8   4  version                 0x20000000 ("2.0")
 *    12  64  checksum                zero (never computed, never checked)
 *    76   4  length                  0; legacy data size, used only when
 *                                    model_length == 0
 *    80   1  is_encrypt              0
 *    81   1  is_checksum             0
 *    82   1  modeltype               0 IR model; 3 flow; 5 bundle (section 5)
 *    83   1  genmode                 0 offline
 *    84  32  name                    model name, at most 31 bytes, NUL padded
 *   116   4  ops                     0
 *   120  32  userdefineinfo          zero
 *   152   4  om_ir_version           0 for ATC builds (= ModelDef.version)
 *   156   4  model_num               1 static; number of tables when dynamic
 *   160  20  platform_version        NUL-terminated, at most 19 characters
 *   180   1  platform_type           0
 *   181   3  padd                    zero
 *   184   8  model_length            L
 *   192   1  need_check_os_cpu_info  0 (1 only with packed host .so files)
 *   193   1  is_unknow_model         1 for a dynamic (unknown-shape) root
 *   194  62  reserved                zero
 *
 *  2.1 Length rule: L = model_length ? model_length : length, and
 *      L == file size - 256 exactly (no trailing bytes).
 *  2.2 Dynamic rule: a file is "dynamic" iff version >= 0x20000000 and
 *      (model_num > 1 or is_unknow_model == 1). Dynamic files hold
 *      model_num tables (section 5); every other file holds exactly one.
 *  2.3 Files older than 2.0 are single-table whatever model_num says.
 *
 * ===================================================================
 *  3. Partition tables
 * ===================================================================
 *  3.1 64-bit table (every current writer; required when model_length != 0
 *      or modeltype == 3):
 *        +0  u32 num, +4 u32 zero padding,
 *        then num entries of 24 bytes:
 *        +0 u32 type, +4 u32 zero padding, +8 u64 mem_offset, +16 u64 mem_size
 *      size = 8 + 24 * num.
 *  3.2 32-bit "tiny" table (legacy files with model_length == 0 and
 *      modeltype != 3): +0 u32 num, then num entries
 *      {u32 type, u32 mem_offset, u32 mem_size}; size = 4 + 12 * num.
 *      Read, never written.
 *  3.3 mem_offset is relative to the first byte after its own table. The
 *      first partition has offset 0 and each next one starts where the
 *      previous ended: CANN's loader ignores mem_offset and sums sizes,
 *      Netron seeks mem_offset, so the two must agree.
 *  3.4 num is 1..8 for normal models, 1..4096 for flow models (modeltype 3).
 *      A table with num == 1 (MODEL_DEF only, an "original graph" om) can be
 *      dumped but not executed or size-queried.
 *  3.5 Every partition lies inside the data, every table is followed by at
 *      least one byte, and tables plus partitions add up to L exactly.
 *  3.6 A type appears at most once per table (FLOW_SUBMODEL may repeat in a
 *      flow model). MODEL_DEF is required; the other types are optional.
 *  3.7 Partition sizes are >= 1; sizes above 4 GiB are allowed only for
 *      WEIGHTS_DATA, TBE_KERNELS and CUST_AICPU_KERNELS.
 *
 * ===================================================================
 *  4. Partition types and the order ATC writes them
 * ===================================================================
 *   0 MODEL_DEF        ge.proto.ModelDef (om_pb.h)
 *   1 WEIGHTS_DATA     raw weights, addressed by TensorDescriptor.data_offset
 *   2 TASK_INFO        domi.ModelTaskDef
 *   3 TBE_KERNELS      kernel store        4 CUST_AICPU_KERNELS kernel store
 *   5 SO_BINS          packed host .so     6 FLOW_MODEL  7 FLOW_SUBMODEL
 *   8 MODEL_INOUT_INFO TLV records (om_inout.h)
 *   9-11 nano task descriptions, 12 TILING_DATA, 20-23 pre-model formats,
 *   24 BUNDLE_MODEL_INFO, 25 BUNDLE_MODEL_VAR_INFO, 26 CUSTOM_OPS.
 *  Single static model (one table): [SO_BINS] [CUSTOM_OPS] [TILING_DATA]
 *  [MODEL_INOUT_INFO] MODEL_DEF [WEIGHTS_DATA] [TBE_KERNELS]
 *  [CUST_AICPU_KERNELS] TASK_INFO; model_num = 1, is_unknow_model = 0.
 *  Netron reads only the first table, first as a 32-bit table, so a
 *  writer must put at least two partitions in it.
 *  Our writer (om_ir.h) ends MODEL_DEF with one unknown length-delimited
 *  field (number OA_OM_PAD_FIELD, zero bytes) sized so that WEIGHTS_DATA
 *  starts at a multiple of OA_OM_WEIGHTS_FILE_ALIGN in the file: the loader
 *  then uses the mapped weights in place (README "Weights alignment").
 *
 * ===================================================================
 *  5. Multi-model ("dynamic root") files
 * ===================================================================
 *  model_num blocks [table][partitions], offsets restarting at 0 in each.
 *  Block 0 is the root model (its MODEL_DEF holds every graph), blocks 1..n-1
 *  are statically compiled sub-models: MODEL_DEF [WEIGHTS_DATA]
 *  [TBE_KERNELS] [CUST_AICPU_KERNELS] TASK_INFO. Header: model_num = number
 *  of blocks, is_unknow_model = 1. Sub-models are bound to subgraphs by graph
 *  name. Flow (modeltype 3, one table, FLOW_SUBMODEL repeated) and bundle
 *  (modeltype 5) files are container variants; this reader parses flow
 *  containers and refuses bundles, as CANN's non-bundle loaders do.
 *
 * ===================================================================
 *  6. Failure classes and the codes returned for them
 * ===================================================================
 *  The model path (aclmdlLoadFromFile*, aclmdlQuerySize*) returns what
 *  CANN's GE returns for the same input; where GE does not detect a class we
 *  picked the code of the partition the defect lives in. oa_status names in
 *  brackets (src/base/status_defs.inc).
 *
 *   #   failure class                                   code
 *   F1  path empty, file missing, not a regular file,   145002 [OA_E_GE_MODEL_PATH]
 *       unreadable, or 0 bytes long
 *   F2  image pointer NULL                              145007 [OA_E_GE_MODEL_ADDR]
 *   F3  image shorter than the 256-byte header          145000 [OA_E_GE_PARAM]
 *   F4  magic is not "IMOD"                             145000 [OA_E_GE_PARAM]
 *   F5  L != image size - 256 (2.1)                     145000 [OA_E_GE_PARAM]
 *   F6  bundle model (modeltype 5)                      500002 [OA_E_GE_FAILURE]
 *   F7  partition count outside 1..8 (flow: 1..4096)    145000 [OA_E_GE_PARAM]
 *   F8  a table, or its entries, past the data, or no   145006 [OA_E_GE_MODEL_DATA_SIZE]
 *       byte after a table
 *   F9  a partition past the data                       145006 [OA_E_GE_MODEL_DATA_SIZE]
 *   F10 mem_offset != running sum of sizes (3.3)        145000 [OA_E_GE_PARAM]
 *   F11 duplicate partition type in a table (3.6)       145000 [OA_E_GE_PARAM]
 *   F12 tables + partitions do not add up to L (3.5)    500002 [OA_E_GE_FAILURE]
 *   F13 MODEL_DEF partition missing                     545002 [OA_E_GE_LOAD_MODEL_PARTITION]
 *   F14 MODEL_DEF is not a valid ge.proto.ModelDef:     545002 [OA_E_GE_LOAD_MODEL_PARTITION]
 *       truncated field, length past the end, bad wire
 *       type, nesting deeper than 100, string that is not
 *       UTF-8 or holds a NUL byte, larger than 2 GiB or
 *       decoding to more than 64 times its size
 *   F15 graph structure: no graph, duplicate graph or   545002 [OA_E_GE_LOAD_MODEL_PARTITION]
 *       op names, input naming an unknown op, unknown
 *       subgraph name, a subgraph loop or a subgraph
 *       owned twice, the main graph used as a subgraph
 *   F16 absurd tensor description: rank > 128, dim     545002 [OA_E_GE_LOAD_MODEL_PARTITION]
 *       < -2, -2 not alone, element count overflowing
 *       int64, dtype outside the proto enum
 *   F17 attribute compression: dictionaries missing or  545002 [OA_E_GE_LOAD_MODEL_PARTITION]
 *       of different lengths, empty key, key or value
 *       index out of range, a name that is not UTF-8,
 *       a string-valued name whose value is not an int
 *       or a list of ints
 *   F18 required op attribute missing or of the wrong   100016 [OA_E_MODEL_MISSING_ATTR]
 *       kind (Data: index i; Const: value t;
 *       FileConstant: shape list, dtype dt)
 *   F19 TASK_INFO is not a valid domi.ModelTaskDef      545004 [OA_E_GE_LOAD_TASK_PARTITION]
 *   F20 weight reference past WEIGHTS_DATA              545003 [OA_E_GE_LOAD_WEIGHT_PARTITION]
 *   F21 MODEL_INOUT_INFO malformed (record past the     500002 [OA_E_GE_FAILURE]
 *       partition, unknown or repeated record type,
 *       lengths that are not whole elements)
 *   F22 static model whose table holds only MODEL_DEF,  145000 [OA_E_GE_PARAM]
 *       when executed or size-queried
 *   F23 out of host memory                              245000 [OA_E_GE_MEMORY_ALLOCATION]
 *
 *  Single-operator models (aclopLoad, aclopSetModelDir) are parsed by CANN's
 *  ACL layer with other codes; oa_om_status_for_op_model() converts: F1 ->
 *  100014 READ_MODEL_FAILURE, F3 and F5 -> 100013 PARSE_MODEL, every other
 *  container or MODEL_DEF class -> 100012 DESERIALIZE_MODEL.
 *
 *  Writer failures: an invalid request (no table, bad count, empty or
 *  oversized partition, duplicate type, name or platform version too long)
 *  is 145000 [OA_E_GE_PARAM]; an I/O failure is 100004 [OA_E_WRITE_FILE].
 */
#ifndef OA_OM_FORMAT_H
#define OA_OM_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"

#define OA_OM_MAGIC 0x444F4D49u
#define OA_OM_HEADER_SIZE 256u
#define OA_OM_MODEL_VERSION 0x20000000u
#define OA_OM_NAME_LEN 32u
#define OA_OM_PLATFORM_VERSION_LEN 20u
#define OA_OM_TABLE_HEAD_SIZE 8u   /* 64-bit table: num + padding */
#define OA_OM_TABLE_ENTRY_SIZE 24u /* 64-bit entry */
#define OA_OM_TINY_HEAD_SIZE 4u
#define OA_OM_TINY_ENTRY_SIZE 12u
#define OA_OM_MAX_PARTITIONS 8u
#define OA_OM_MAX_FLOW_PARTITIONS 4096u
/* Our writer's WEIGHTS_DATA file alignment and MODEL_DEF padding field (§4). */
#define OA_OM_WEIGHTS_FILE_ALIGN 64u
#define OA_OM_PAD_FIELD 2047u /* 2-byte tag; no ge.proto message uses it */

/* ModelPartitionType values. */
typedef enum oa_om_part_type {
    OA_OM_PART_MODEL_DEF = 0,
    OA_OM_PART_WEIGHTS_DATA = 1,
    OA_OM_PART_TASK_INFO = 2,
    OA_OM_PART_TBE_KERNELS = 3,
    OA_OM_PART_CUST_AICPU_KERNELS = 4,
    OA_OM_PART_SO_BINS = 5,
    OA_OM_PART_FLOW_MODEL = 6,
    OA_OM_PART_FLOW_SUBMODEL = 7,
    OA_OM_PART_MODEL_INOUT_INFO = 8,
    OA_OM_PART_STATIC_TASK_DESC = 9,
    OA_OM_PART_DYNAMIC_TASK_DESC = 10,
    OA_OM_PART_TASK_PARAM = 11,
    OA_OM_PART_TILING_DATA = 12,
    OA_OM_PART_PRE_MODEL_DESC = 20,
    OA_OM_PART_PRE_MODEL_SQE = 21,
    OA_OM_PART_PRE_KERNEL_ARGS = 22,
    OA_OM_PART_PRE_MODEL_DESC_EXTEND = 23,
    OA_OM_PART_BUNDLE_MODEL_INFO = 24,
    OA_OM_PART_BUNDLE_MODEL_VAR_INFO = 25,
    OA_OM_PART_CUSTOM_OPS = 26
} oa_om_part_type;

/* ModelHeaderType values (header byte 82). */
typedef enum oa_om_model_type {
    OA_OM_MODEL_IR = 0,
    OA_OM_MODEL_STANDARD = 1,
    OA_OM_MODEL_TINY = 2,
    OA_OM_MODEL_FLOW = 3,
    OA_OM_MODEL_LITE = 4,
    OA_OM_MODEL_BUNDLE = 5
} oa_om_model_type;

/* The decoded header, one field per on-disk field (section 2). */
typedef struct oa_om_header {
    uint32_t magic;
    uint32_t headsize;
    uint32_t version;
    uint8_t checksum[64];
    uint32_t length;
    uint8_t is_encrypt;
    uint8_t is_checksum;
    uint8_t modeltype;
    uint8_t genmode;
    char name[OA_OM_NAME_LEN]; /* not necessarily NUL-terminated when read */
    uint32_t ops;
    uint8_t userdefineinfo[32];
    uint32_t om_ir_version;
    uint32_t model_num;
    char platform_version[OA_OM_PLATFORM_VERSION_LEN];
    uint8_t platform_type;
    uint8_t padd[3];
    uint64_t model_length;
    uint8_t need_check_os_cpu_info;
    uint8_t is_unknow_model;
    uint8_t reserved[62];
} oa_om_header;

/* Fills h with what ATC writes for a static model: magic, headsize 256,
 * version 2.0, model_num 1, everything else zero. */
void oa_om_header_init(oa_om_header *h);

/* Decodes / encodes the 256 header bytes (section 2); no validation. */
void oa_om_header_decode(const uint8_t raw[OA_OM_HEADER_SIZE], oa_om_header *h);
void oa_om_header_encode(const oa_om_header *h, uint8_t raw[OA_OM_HEADER_SIZE]);

/* Rule 2.2. */
bool oa_om_header_is_dynamic(const oa_om_header *h);

/* Short upper-case name of a partition type ("MODEL_DEF"), "UNKNOWN" otherwise. */
const char *oa_om_part_type_name(uint32_t type);

/* ------------------------------------------------------------------ */
/* Reader                                                              */
/* ------------------------------------------------------------------ */

/* One partition, borrowed from the image. */
typedef struct oa_om_partition {
    uint32_t type;
    uint64_t mem_offset; /* as stored (relative to the end of its table) */
    uint64_t size;
    const uint8_t *data; /* points into the image */
} oa_om_partition;

typedef struct oa_om_table {
    uint64_t file_offset; /* of the table itself */
    uint64_t data_offset; /* file offset of its first partition */
    bool tiny;            /* 32-bit legacy table (3.2) */
    uint32_t num;
    oa_om_partition *parts;
} oa_om_table;

/* A parsed container. Caller-owned struct: oa_om_container_parse() fills it,
 * oa_om_container_deinit() releases it. The partitions point into the image,
 * which must outlive the container. */
typedef struct oa_om_container {
    oa_om_header header;
    const uint8_t *image;
    size_t image_size;
    bool dynamic; /* rule 2.2 */
    uint32_t num_tables;
    oa_om_table *tables;
} oa_om_container;

/*
 * Parses and checks the header and every partition table of image[size]
 * (sections 2 and 3; failure classes F2-F13 of section 6). On success *c
 * holds the tables; on failure *c is zeroed and nothing needs releasing.
 * The image is never written to.
 */
oa_status oa_om_container_parse(const void *image, size_t size, oa_om_container *c) OA_MUST_CHECK;

/* Releases what parse allocated; accepts a zeroed or NULL container. */
void oa_om_container_deinit(oa_om_container *c);

/* First partition of the given type in table t, or NULL. */
const oa_om_partition *oa_om_table_find(const oa_om_table *t, uint32_t type);

/*
 * Failure class F22: succeeds unless the container is a static model whose
 * only table holds just MODEL_DEF (an "original graph" om).
 */
oa_status oa_om_container_check_executable(const oa_om_container *c) OA_MUST_CHECK;

/* Converts a model-path status of section 6 into the code CANN's single-op
 * model parser returns for the same failure. */
oa_status oa_om_status_for_op_model(oa_status st);

/* ------------------------------------------------------------------ */
/* Writer                                                              */
/* ------------------------------------------------------------------ */

/* One partition to write; data is copied verbatim. */
typedef struct oa_om_part_src {
    uint32_t type;
    const void *data;
    uint64_t size;
} oa_om_part_src;

typedef struct oa_om_table_src {
    const oa_om_part_src *parts;
    uint32_t num;
} oa_om_table_src;

/*
 * Writes header + tables + partitions (sections 1-5). The header is taken
 * as given except magic, headsize (256) and model_length, which the writer
 * sets; it must be consistent with the tables: a dynamic header (2.2) needs
 * model_num == num_tables, any other header exactly one table. Every table
 * must satisfy 3.4, 3.6 and 3.7 and hold a MODEL_DEF; partitions are written
 * in the order given with mem_offset = running sum. Invalid requests fail
 * with OA_E_GE_PARAM before anything is written.
 *
 * _size computes the file size only. _memory returns a malloc'd image the
 * caller frees. _file writes path atomically: a temporary file in the same
 * directory (mode 0600) is written, flushed and renamed over path, so a
 * crash never leaves a partial .om; I/O errors give OA_E_WRITE_FILE.
 */
oa_status oa_om_container_size(const oa_om_header *h, const oa_om_table_src *tables, uint32_t num_tables,
                               uint64_t *size) OA_MUST_CHECK;
oa_status oa_om_container_write_memory(const oa_om_header *h, const oa_om_table_src *tables, uint32_t num_tables,
                                       uint8_t **out, size_t *out_size) OA_MUST_CHECK;
oa_status oa_om_container_write_file(const char *path, const oa_om_header *h, const oa_om_table_src *tables,
                                     uint32_t num_tables) OA_MUST_CHECK;

/* ------------------------------------------------------------------ */
/* Files                                                               */
/* ------------------------------------------------------------------ */

/* A read-only view of a whole file (mmap) or a borrowed memory block. */
typedef struct oa_om_image {
    const uint8_t *data;
    size_t size;
    void *map; /* non-NULL when mapped by oa_om_image_map_file() */
    size_t map_size;
} oa_om_image;

/*
 * Maps path read-only. Failure class F1 (OA_E_GE_MODEL_PATH) for an empty
 * path, a missing or unreadable file, a non-regular file or an empty one.
 * The mapping is private; a file truncated by someone else while mapped
 * faults, as any mapped file does.
 */
oa_status oa_om_image_map_file(const char *path, oa_om_image *img) OA_MUST_CHECK;

/* Unmaps a mapped image; accepts NULL and zeroed images. */
void oa_om_image_unmap(oa_om_image *img);

#endif /* OA_OM_FORMAT_H */

/*
 * The MODEL_INOUT_INFO partition (type 8): model input/output descriptions
 * and dynamic-gear tables that CANN can read without decoding MODEL_DEF.
 *
 * Layout (all little-endian, no padding): a sequence of TLV records
 *     u32 type, u32 length, value[length]
 * written in type order, a record omitted when its count is 0, the whole
 * partition omitted when every record is.
 *
 *   type value
 *   0    inputs:  u32 n, then n tensor records
 *   1    outputs: u32 n, then n tensor records
 *   2    dynamic batch: u32 n, then n x i64
 *   3    dynamic HW:    u32 n, n x u32 k_i, then for each i k_i x i64
 *   4    dynamic dims:  same as 3
 *   5    dynamic output shapes: u32 n, n x u32 byte lengths, then the
 *        strings back to back (no NULs)
 *   6    user-designated input order: same as 5
 *
 * Tensor record: a 32-byte head
 *     u64 size, i32 format (GE Format), i32 dtype (GE DataType, not the proto
 *     numbering), u32 name_len, u32 dims_len, u32 dims_v2_len,
 *     u32 shape_range_len            (lengths in bytes)
 * then name (no NUL), dims (i64 each), dims_v2 (i64 each), shape_range
 * (pairs of i64 {min, max}).
 *
 * The parser is stricter than CANN's (failure class F21, OA_E_GE_FAILURE):
 * unknown and repeated record types, records or items past their end, byte
 * lengths that are not whole i64s or i64 pairs, and records with bytes left
 * over are all rejected.
 */
#ifndef OA_OM_INOUT_H
#define OA_OM_INOUT_H

#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "om/om_arena.h"

enum {
    OA_OM_INOUT_INPUT_DESC = 0,
    OA_OM_INOUT_OUTPUT_DESC = 1,
    OA_OM_INOUT_DYNAMIC_BATCH = 2,
    OA_OM_INOUT_DYNAMIC_HW = 3,
    OA_OM_INOUT_DYNAMIC_DIMS = 4,
    OA_OM_INOUT_DYNAMIC_OUTPUT_SHAPE = 5,
    OA_OM_INOUT_DESIGNATE_SHAPE_ORDER = 6,
    OA_OM_INOUT_TYPE_COUNT = 7
};

#define OA_OM_INOUT_TENSOR_HEAD 32u

typedef struct oa_om_io_tensor {
    uint64_t size;
    int32_t format; /* GE Format */
    int32_t dtype;  /* GE DataType */
    const char *name; /* NUL-terminated copy (name_len bytes, may hold NULs) */
    size_t name_len;
    const int64_t *dims;
    size_t n_dims;
    const int64_t *dims_v2;
    size_t n_dims_v2;
    const int64_t *ranges; /* n_ranges pairs: ranges[2k] min, ranges[2k+1] max */
    size_t n_ranges;
} oa_om_io_tensor;

/* A list of i64 lists (dynamic HW / dims gears). */
typedef struct oa_om_io_gears {
    size_t n;
    const size_t *len;          /* len[i] values in vals[i] */
    const int64_t *const *vals; /* vals[i] */
} oa_om_io_gears;

typedef struct oa_om_io_strings {
    size_t n;
    const char *const *s; /* NUL-terminated copies */
    const size_t *len;
} oa_om_io_strings;

typedef struct oa_om_inout {
    size_t n_inputs;
    const oa_om_io_tensor *inputs;
    size_t n_outputs;
    const oa_om_io_tensor *outputs;
    size_t n_batch;
    const int64_t *batch;
    oa_om_io_gears hw;
    oa_om_io_gears dims;
    oa_om_io_strings dynamic_output_shape;
    oa_om_io_strings designate_shape_order;
} oa_om_inout;

/*
 * Parses data[size] into *out; every array and string is allocated in
 * arena a (nothing points into data). Failure class F21.
 */
oa_status oa_om_inout_parse(const uint8_t *data, size_t size, oa_om_arena *a, oa_om_inout *out) OA_MUST_CHECK;

/*
 * Serializes in (records in type order, empty ones left out) into a
 * malloc'd buffer; *len == 0 (and *out NULL) when there is nothing to write,
 * in which case the partition must be omitted. OA_E_GE_PARAM when a length
 * does not fit its u32 field; OA_E_GE_MEMORY_ALLOCATION on OOM.
 */
oa_status oa_om_inout_serialize(const oa_om_inout *in, uint8_t **out, size_t *len) OA_MUST_CHECK;

#endif /* OA_OM_INOUT_H */

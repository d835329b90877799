/* om_ir_common: derivation rules shared by the IR writer and reader. */
#define OA_LOG_MODULE "GE"
#include "om_ir/om_ir_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "om_ir/om_ir.h"

static bool name_in(const char *name, size_t len, const char *const *list, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        if (strlen(list[i]) == len && memcmp(list[i], name, len) == 0) {
            return true;
        }
    }
    return false;
}

bool om_ir_is_injected_attr(const char *name, size_t len)
{
    static const char *const k[] = {
        OM_ATTR_INPUT_NAME_KEY, OM_ATTR_INPUT_NAME_VALUE, OM_ATTR_OUTPUT_NAME_KEY, OM_ATTR_OUTPUT_NAME_VALUE,
        "_opt_input",           "_ir_attr_names",         "_ir_inputs_key",        "_ir_inputs_value",
        "_ir_outputs_key",      "_ir_outputs_value",
    };
    return name_in(name, len, k, OA_ARRAY_SIZE(k));
}

bool om_ir_is_derived_desc_attr(const char *name, size_t len)
{
    static const char *const k[] = {
        OM_DESC_ORIGIN_FORMAT,        OM_DESC_ORIGIN_FORMAT_FOR_INT, OM_DESC_FORMAT_FOR_INT,
        OM_DESC_ORIGIN_SHAPE_INITIALIZED, OM_DESC_ORIGIN_SHAPE,      OM_DESC_SHAPE_RANGE,
    };
    return name_in(name, len, k, OA_ARRAY_SIZE(k));
}

const char *om_ir_subgraph_slot_name(oa_op_type t, uint32_t i)
{
    switch (t) {
    case OA_OP_IF:
    case OA_OP_STATELESS_IF:
        return i == 0 ? "then_branch" : "else_branch";
    case OA_OP_CASE:
        return "branches";
    case OA_OP_WHILE:
        return i == 0 ? "cond" : "body";
    case OA_OP_PARTITIONED_CALL:
        return "f";
    default:
        return "subgraph";
    }
}

typedef struct name_idx {
    const char *name;
    int64_t index;
} name_idx;

static int name_idx_cmp(const void *a, const void *b)
{
    return strcmp(((const name_idx *)a)->name, ((const name_idx *)b)->name);
}

oa_status om_ir_io_names(oa_om_arena *a, oa_op_type t, uint32_t count, bool outputs, om_io_names *out)
{
    memset(out, 0, sizeof(*out));
    if (count == 0) {
        return OA_OK;
    }
    name_idx *tmp = malloc(count * sizeof(*tmp));
    out->names = oa_om_arena_alloc(a, count * sizeof(*out->names));
    out->index = oa_om_arena_alloc(a, count * sizeof(*out->index));
    if (tmp == NULL || out->names == NULL || out->index == NULL) {
        free(tmp);
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][IoNames] %u names", count);
    }
    for (uint32_t i = 0; i < count; ++i) {
        char buf[64];
        bool ok = outputs ? oa_op_output_name(t, count, i, buf, sizeof(buf))
                          : oa_op_input_name(t, count, i, buf, sizeof(buf));
        if (!ok) {
            (void)snprintf(buf, sizeof(buf), outputs ? "__output%u" : "__input%u", i);
        }
        tmp[i].name = oa_om_arena_strndup(a, buf, strlen(buf));
        tmp[i].index = i;
        if (tmp[i].name == NULL) {
            free(tmp);
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Serialize][IoNames] name");
        }
    }
    /* GE keeps the map in a std::map: sorted by name. */
    qsort(tmp, count, sizeof(*tmp), name_idx_cmp);
    for (uint32_t i = 0; i < count; ++i) {
        out->names[i] = tmp[i].name;
        out->index[i] = tmp[i].index;
    }
    out->n = count;
    free(tmp);
    return OA_OK;
}

int64_t om_ir_exact_size(oa_dtype dt, const oa_shape *s)
{
    size_t n = 0;
    if (!oa_tensor_nbytes(dt, s, &n) || n > (size_t)INT64_MAX) {
        return 0;
    }
    return (int64_t)n;
}

int64_t om_ir_padded_size(oa_dtype dt, const oa_shape *s)
{
    size_t n = 0;
    if (!oa_tensor_nbytes(dt, s, &n) || n > (size_t)INT64_MAX - 64) {
        return 0;
    }
    return (int64_t)((n + 32 + 31) / 32 * 32);
}

void oa_om_write_opts_init(oa_om_write_opts *opts)
{
    memset(opts, 0, sizeof(*opts));
}

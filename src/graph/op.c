/*
 * Op type tables generated from op_defs.inc (op.h): names, the sorted
 * name index for load-time lookup, IR signatures.
 */
#include "graph/op.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

typedef struct op_info {
    const char *name;
    const char *inputs;
    const char *outputs;
    unsigned flags;
} op_info;

/* The flag names of op_defs.inc rows. */
#define F_EW1 OA_OPF_EW_UNARY
#define F_EW2 OA_OPF_EW_BINARY
#define F_INPLACE OA_OPF_INPLACE
#define F_INPLACE_EQ OA_OPF_INPLACE_EQ
#define F_NCHWC OA_OPF_NCHWC
#define F_FOLD OA_OPF_FOLD
#define F_POST OA_OPF_POST
#define F_VIEW OA_OPF_VIEW
#define F_DDS OA_OPF_DDS

static const op_info OPS[OA_OP_COUNT] = {
#define OA_OP(id, name, ins, outs, infer, kernel, sub, flags) [OA_OP_##id] = {name, ins, outs, flags},
#include "graph/op_defs.inc"
#undef OA_OP
};

#undef F_EW1
#undef F_EW2
#undef F_INPLACE
#undef F_INPLACE_EQ
#undef F_NCHWC
#undef F_FOLD
#undef F_POST
#undef F_VIEW
#undef F_DDS

unsigned oa_op_flags(oa_op_type t)
{
    return ((unsigned)t < OA_OP_COUNT) ? OPS[t].flags : 0u;
}

const char *oa_op_type_name(oa_op_type t)
{
    return ((unsigned)t < OA_OP_COUNT) ? OPS[t].name : "Unknown";
}

static uint16_t g_sorted[OA_OP_COUNT];
static pthread_once_t g_sorted_once = PTHREAD_ONCE_INIT;

static int cmp_by_name(const void *a, const void *b)
{
    return strcmp(OPS[*(const uint16_t *)a].name, OPS[*(const uint16_t *)b].name);
}

static void build_sorted(void)
{
    for (unsigned i = 0; i < OA_OP_COUNT; i++) {
        g_sorted[i] = (uint16_t)i;
    }
    qsort(g_sorted, OA_OP_COUNT, sizeof(g_sorted[0]), cmp_by_name);
}

oa_op_type oa_op_type_from_name(const char *name)
{
    if (name == NULL) {
        return OA_OP_UNKNOWN;
    }
    if (strcmp(name, OA_OP_AIPP_DATA_TYPE) == 0) {
        return OA_OP_DATA; /* the dynamic-AIPP parameter input is a model input like Data (op.h) */
    }
    pthread_once(&g_sorted_once, build_sorted);
    size_t lo = 0, hi = OA_OP_COUNT;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(OPS[g_sorted[mid]].name, name);
        if (c == 0) {
            return (oa_op_type)g_sorted[mid];
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return OA_OP_UNKNOWN;
}

/* Parses a signature string ("x filter bias? offset_w?"). */
static size_t parse_sig(const char *sig, oa_op_io *io, size_t cap)
{
    size_t n = 0;
    const char *p = sig;
    while (*p) {
        while (*p == ' ') {
            p++;
        }
        if (!*p) {
            break;
        }
        const char *start = p;
        while (*p && *p != ' ') {
            p++;
        }
        size_t len = (size_t)(p - start);
        if (n < cap) {
            oa_op_io *e = &io[n];
            memset(e, 0, sizeof(*e));
            if (len > 0 && start[len - 1] == '?') {
                e->optional = true;
                len--;
            } else if (len > 0 && start[len - 1] == '*') {
                e->dynamic = true;
                len--;
            }
            if (len >= sizeof(e->name)) {
                len = sizeof(e->name) - 1;
            }
            memcpy(e->name, start, len);
            e->name[len] = '\0';
        }
        n++;
    }
    return n;
}

size_t oa_op_ir_inputs(oa_op_type t, oa_op_io *io, size_t cap)
{
    return ((unsigned)t < OA_OP_COUNT) ? parse_sig(OPS[t].inputs, io, cap) : 0;
}

size_t oa_op_ir_outputs(oa_op_type t, oa_op_io *io, size_t cap)
{
    return ((unsigned)t < OA_OP_COUNT) ? parse_sig(OPS[t].outputs, io, cap) : 0;
}

/* Resolves slot idx of `count` slots against a declaration with at most one
 * dynamic entry. */
static bool slot_name(const char *sig, uint32_t count, uint32_t idx, char *buf, size_t cap)
{
    oa_op_io io[16];
    size_t n = parse_sig(sig, io, OA_ARRAY_SIZE(io));
    if (n > OA_ARRAY_SIZE(io) || idx >= count || cap == 0) {
        return false;
    }
    size_t dyn = n;
    for (size_t i = 0; i < n; i++) {
        if (io[i].dynamic) {
            dyn = i;
            break;
        }
    }
    if (dyn == n) {
        if (idx >= n) {
            return false;
        }
        snprintf(buf, cap, "%s", io[idx].name);
        return true;
    }
    size_t after = n - dyn - 1;  /* fixed entries after the dynamic one */
    if ((size_t)count < dyn + after) {
        return false;
    }
    size_t ndyn = (size_t)count - dyn - after;
    if (idx < dyn) {
        snprintf(buf, cap, "%s", io[idx].name);
    } else if (idx < dyn + ndyn) {
        snprintf(buf, cap, "%s%zu", io[dyn].name, (size_t)idx - dyn);
    } else {
        snprintf(buf, cap, "%s", io[dyn + 1 + (idx - dyn - ndyn)].name);
    }
    return true;
}

bool oa_op_input_name(oa_op_type t, uint32_t count, uint32_t idx, char *buf, size_t cap)
{
    return (unsigned)t < OA_OP_COUNT && slot_name(OPS[t].inputs, count, idx, buf, cap);
}

bool oa_op_output_name(oa_op_type t, uint32_t count, uint32_t idx, char *buf, size_t cap)
{
    return (unsigned)t < OA_OP_COUNT && slot_name(OPS[t].outputs, count, idx, buf, cap);
}

uint32_t oa_op_min_inputs(oa_op_type t)
{
    oa_op_io io[16];
    size_t n = oa_op_ir_inputs(t, io, OA_ARRAY_SIZE(io));
    uint32_t min = 0;
    for (size_t i = 0; i < n && i < OA_ARRAY_SIZE(io); i++) {
        if (!io[i].optional && !io[i].dynamic) {
            min = (uint32_t)i + 1;
        }
    }
    return min;
}

bool oa_op_has_dynamic_inputs(oa_op_type t)
{
    oa_op_io io[16];
    size_t n = oa_op_ir_inputs(t, io, OA_ARRAY_SIZE(io));
    for (size_t i = 0; i < n && i < OA_ARRAY_SIZE(io); i++) {
        if (io[i].dynamic) {
            return true;
        }
    }
    return false;
}

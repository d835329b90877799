/*
 * The kernel binding table: IR op type -> kernel family and sub-op, expanded
 * from the `kernel` and `sub` columns of graph/op_defs.inc and indexed by
 * oa_op_type (no name lookup at bind time).
 */
#include "op_bind/op_bind.h"

/* The tokens op_defs.inc uses besides the kernels' own enumerators. */
#define OA_KOP_NONE OA_KOP_COUNT
#define OA_NOSUB (-1)
#define OA_KSOFTMAX_PLAIN 0
#define OA_KSOFTMAX_LOG 1

typedef struct op_kernel {
    oa_kop_type type; /* OA_KOP_COUNT: no kernel */
    int sub;
} op_kernel;

static const op_kernel KERNELS[] = {
#define OA_OP(id, name, ins, outs, infer, kernel, sub, flags) [OA_OP_##id] = {OA_KOP_##kernel, (int)OA_##sub},
#include "graph/op_defs.inc"
#undef OA_OP
};

_Static_assert(sizeof(KERNELS) / sizeof(KERNELS[0]) == OA_OP_COUNT, "one kernel binding per op_defs.inc row");

bool oa_op_kernel(oa_op_type t, oa_kop_type *type, int *sub)
{
    if ((unsigned)t >= OA_OP_COUNT || KERNELS[t].type == OA_KOP_COUNT) {
        return false;
    }
    *type = KERNELS[t].type;
    *sub = KERNELS[t].sub;
    return true;
}

/*
 * aclopAttr: the attribute map of a single operator (acl_op.h), shared by
 * the aclop API, the single-op model parser, the op cache and the CPU
 * compiler.
 *
 * Semantics follow CANN's ACL:
 *   - a map ordered by name (byte-wise, as std::map<std::string> orders);
 *     setting an existing name replaces its value (kind included);
 *   - value kinds: bool, int (int64), float, string, data type (GE
 *     DataType numbering; ACL_DT_UNDEFINED is stored as DT_UNDEFINED = 28),
 *     the list forms of these, and list-of-list int. Attributes read from
 *     a model in other kinds (tensors, named attrs, ...) are kept as
 *     OA_OPATTR_OTHER, which never equals anything;
 *   - equality (oa_opattr_equal): same count, every name of one side on
 *     the other, same kind, equal values; floats (scalars and lists) equal
 *     when |a - b| <= 1e-6, both NaN, or both infinite (any signs); other
 *     kinds exact;
 *   - digest (oa_opattr_digest): a hash of the VALUES only, in name order.
 *     Floats are hashed by their bits (+0 and -0 alike), so two values within
 *     1e-6 that differ usually get different digests: the cache keys on the
 *     digest, so such requests miss although the maps compare equal (CANN's
 *     quirk, reproduced on purpose, docs/ops.md "Op models and the cache").
 *
 * A NULL aclopAttr * stands for the empty map in every function here.
 */
#ifndef OA_ACL_OP_OP_ATTR_H
#define OA_ACL_OP_OP_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_op.h"
#include "base/status.h"
#include "graph/graph.h"

typedef enum oa_opattr_kind {
    OA_OPATTR_BOOL,
    OA_OPATTR_INT,
    OA_OPATTR_FLOAT,
    OA_OPATTR_STRING,
    OA_OPATTR_DTYPE,
    OA_OPATTR_LIST_BOOL,
    OA_OPATTR_LIST_INT,
    OA_OPATTR_LIST_FLOAT,
    OA_OPATTR_LIST_STRING,
    OA_OPATTR_LIST_DTYPE,
    OA_OPATTR_LIST_LIST_INT,
    OA_OPATTR_OTHER
} oa_opattr_kind;

typedef struct oa_opattr_item {
    char *name;
    oa_opattr_kind kind;
    union {
        bool b;
        int64_t i;
        float f;
        char *s;
        int32_t dt;
        struct {
            size_t n;
            void *v; /* bool[], int64_t[], float[], char *[], int32_t[] (GE dtypes) */
        } list;
        struct {
            size_t n;
            size_t *lens;
            int64_t **v;
        } lli;
        int32_t other; /* the model attr's kind (proto value case), for messages */
    } u;
} oa_opattr_item;

struct aclopAttr {
    size_t n, cap;
    oa_opattr_item *items; /* sorted by name */
};

/* GE's DT_UNDEFINED (what ACL_DT_UNDEFINED becomes in attributes and model descs). */
#define OA_GE_DT_UNDEFINED 28

aclopAttr *oa_opattr_create(void);
void oa_opattr_destroy(aclopAttr *a);
/* Deep copy (src NULL gives an empty map). */
oa_status oa_opattr_clone(const aclopAttr *src, aclopAttr **out) OA_MUST_CHECK;

/* Setters (the name and values are copied; an existing name is replaced). OA_E_PARAM for a NULL name. */
oa_status oa_opattr_set_bool(aclopAttr *a, const char *name, bool v) OA_MUST_CHECK;
oa_status oa_opattr_set_int(aclopAttr *a, const char *name, int64_t v) OA_MUST_CHECK;
oa_status oa_opattr_set_float(aclopAttr *a, const char *name, float v) OA_MUST_CHECK;
oa_status oa_opattr_set_string(aclopAttr *a, const char *name, const char *v) OA_MUST_CHECK;
oa_status oa_opattr_set_dtype(aclopAttr *a, const char *name, int32_t ge_dtype) OA_MUST_CHECK;
oa_status oa_opattr_set_list_bool(aclopAttr *a, const char *name, size_t n, const bool *v) OA_MUST_CHECK;
oa_status oa_opattr_set_list_int(aclopAttr *a, const char *name, size_t n, const int64_t *v) OA_MUST_CHECK;
oa_status oa_opattr_set_list_float(aclopAttr *a, const char *name, size_t n, const float *v) OA_MUST_CHECK;
oa_status oa_opattr_set_list_string(aclopAttr *a, const char *name, size_t n, const char *const *v) OA_MUST_CHECK;
oa_status oa_opattr_set_list_dtype(aclopAttr *a, const char *name, size_t n, const int32_t *ge_dtypes) OA_MUST_CHECK;
oa_status oa_opattr_set_list_list_int(aclopAttr *a, const char *name, size_t n, const size_t *lens,
                                      const int64_t *const *v) OA_MUST_CHECK;
/* A value of a kind the map cannot hold (model attrs): never equal to anything. */
oa_status oa_opattr_set_other(aclopAttr *a, const char *name, int32_t what) OA_MUST_CHECK;

size_t oa_opattr_count(const aclopAttr *a);
const oa_opattr_item *oa_opattr_find(const aclopAttr *a, const char *name);
bool oa_opattr_remove(aclopAttr *a, const char *name);

/* Value equality of two items (name not compared), with the float tolerance. */
bool oa_opattr_item_equal(const oa_opattr_item *x, const oa_opattr_item *y);
/* Map equality as described above. */
bool oa_opattr_equal(const aclopAttr *x, const aclopAttr *y);
/* Digest of the values in name order; 0 for an empty map. */
uint64_t oa_opattr_digest(const aclopAttr *a);

/* Boost-style combine used by every key hash of the op layer. */
static inline uint64_t oa_opattr_hash_combine(uint64_t seed, uint64_t v)
{
    return seed ^ (v + 0x9E3779B97F4A7C15ull + (seed << 6) + (seed >> 2));
}
uint64_t oa_opattr_hash_bytes(const void *p, size_t n);

/* "{name = value, ...}" into buf (truncated); returns buf. */
char *oa_opattr_str(const aclopAttr *a, char *buf, size_t cap);

/*
 * Writes every attribute into the IR attribute list dst of a node of graph g
 * (bool, int, float, string, dtype and the list forms map one to one; dtype
 * values are GE numbers). OA_E_PARAM for OA_OPATTR_OTHER values.
 */
oa_status oa_opattr_to_ir(const aclopAttr *a, oa_graph *g, oa_attrs *dst) OA_MUST_CHECK;

#endif /* OA_ACL_OP_OP_ATTR_H */

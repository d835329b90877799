/*
 * Single-operator models and the op cache (the registry CANN calls its op
 * model map), as docs/ops.md "Op models and the cache" describes.
 *
 * A model (oa_opmodel) is the signature of one compiled operator: op type,
 * input and output tensor descriptors (aclTensorDesc copies, constants
 * included), the attribute map, and whether it is dynamic. Models come
 * from single-op .om files (aclopSetModelDir, aclopLoad: registered
 * "static", never aged) or from the CPU compiler (aclopCompile*: registered
 * "dynamically", with a logical timestamp, LRU-aged).
 *
 * The cache holds static-shape and dynamic-shape models in ONE map and one
 * count, limited by max_opqueue_num:
 *   - static-shape key: op type; per input then output tensor count and, per
 *     tensor, dtype, (origin) format, storage format when defined, dims,
 *     shape ranges, const flag, memory type; the attribute digest; every
 *     constant's bytes. Equality: the same fields exactly, attributes with
 *     oa_opattr_equal, constants byte-equal.
 *   - dynamic-shape key: op type, the `seq` of the model's shape-range
 *     entry, and per tensor dtype, format, storage format, const flag,
 *     memory type (no dims or ranges), digest, constants.
 * The shape-range table lists, per op type, every distinct combination of
 * tensor shape patterns and ranges of the dynamic models registered; each
 * gets a sequence number `seq` (process-wide, from 1).
 *
 * Matching a request (oa_opcache_match) follows CANN: with JIT compilation
 * enabled and the compile flag DEFAULT, static-shape models first, then the
 * dynamic ones; otherwise dynamic first. Static matching first tries with
 * host-memory inputs turned into constants (their buffers as data), then
 * as given. Dynamic matching at execution needs static request shapes
 * (ACL_ERROR_INVALID_PARAM otherwise), walks the op type's shape-range
 * entries in registration order, skips those that do not admit the
 * request's dims, and looks the rest up by seq (retrying with host-memory
 * inputs as constants). A miss is ACL_ERROR_OP_NOT_FOUND; the message
 * names the first lookup stage that failed for the closest model (op type,
 * inputs, outputs, attributes), which is where older CANN releases
 * returned ACL_ERROR_OP_TYPE/INPUT/OUTPUT/ATTR_NOT_MATCH.
 *
 * Insertion: an equal entry already present is kept (its timestamp
 * refreshed unless it is static) and nothing is added. Otherwise the model
 * is appended; when it is not static and the count exceeds the maximum,
 * the entry with the smallest timestamp is evicted (static entries never).
 * A hit refreshes the timestamp of a dynamically registered entry.
 *
 * Thread-safety: every function may be called from any thread.
 */
#ifndef OA_ACL_OP_OP_MODEL_H
#define OA_ACL_OP_OP_MODEL_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl/acl_op.h"
#include "acl_base/tensor_desc.h"
#include "acl_op/op_attr.h"
#include "base/status.h"

#define OA_OPMODEL_STATIC_TS UINT64_MAX
#define OA_OPMODEL_MAX_SPECS 8

typedef struct oa_opexec oa_opexec;

/* What the executor needs for one specialisation of a model (concrete dims). */
typedef struct oa_opmodel_spec {
    uint64_t dims_hash;
    oa_opexec *exec;
    uint64_t last_use;
} oa_opmodel_spec;

typedef struct oa_opmodel {
    atomic_int refs;
    uint64_t id;           /* process-wide model id */
    char *type;
    char *name;            /* file path, "memory:<addr>" or "compiled" (messages) */
    int n_in, n_out;
    aclTensorDesc *in;     /* arrays from oa_tensor_desc_array_create, NULL when the count is 0 */
    aclTensorDesc *out;
    aclopAttr *attr;       /* never NULL */
    bool dynamic;          /* registered through the shape-range table */
    uint8_t build_mode;    /* 0 exact, 1 fuzzy but static, 2 fuzzy dynamic (CANN's isStaticModelWithFuzzCompile) */
    uint64_t seq;          /* shape-range entry (dynamic models) */
    uint64_t timestamp;    /* OA_OPMODEL_STATIC_TS for static registrations; guarded by the cache lock */
    uint64_t hash;         /* bucket hash, computed at insertion */
    /* executables built from this model, by concrete dims (op_exec.c) */
    pthread_mutex_t exec_mu;
    oa_opmodel_spec specs[OA_OPMODEL_MAX_SPECS];
    uint64_t spec_clock;
} oa_opmodel;

/* A request: what an aclop call describes. Arrays borrowed from the caller. */
typedef struct oa_opreq {
    const char *type;
    int n_in, n_out;
    const aclTensorDesc *const *in;
    const aclTensorDesc *const *out;
    const aclDataBuffer *const *in_buf;  /* NULL when the call has no buffers (compile, handles) */
    const aclDataBuffer *const *out_buf;
    const aclopAttr *attr;               /* NULL = no attributes */
    bool is_compile;                     /* CANN's isCompile: compile APIs match dynamic descs too */
} oa_opreq;

/* ---- models ---- */

/* A new model (one reference) with deep copies of the request's descs and attrs. */
oa_status oa_opmodel_from_req(const oa_opreq *req, const char *name, oa_opmodel **out) OA_MUST_CHECK;
/* An empty model (one reference) with n_in/n_out default descriptors to fill. */
oa_status oa_opmodel_create(const char *type, const char *name, int n_in, int n_out, oa_opmodel **out) OA_MUST_CHECK;
void oa_opmodel_ref(oa_opmodel *m);
/* Drops a reference; the last one frees the model and its executables. Accepts NULL. */
void oa_opmodel_unref(oa_opmodel *m);

/* CANN's IsDynamicOpModel for a model: its flag, or (build mode 0) any dim -1/-2 or value range, or build mode 2. */
bool oa_opmodel_is_dynamic(const oa_opmodel *m);
/* A descriptor that needs a dynamic model: a dim of -1 or -2, or a value range. */
bool oa_opdesc_is_dynamic(const aclTensorDesc *d);
/* An absent optional input: dtype and format undefined, no dims. */
bool oa_opdesc_is_optional_absent(const aclTensorDesc *d);
/* "DataType = 0, Format = 2, Shape = [2, 3], ..." for messages. */
char *oa_opdesc_str(const aclTensorDesc *d, char *buf, size_t cap);

/* ---- the cache ---- */

/*
 * Registers m (the cache takes its own reference when it keeps it).
 * static_reg: model directory / aclopLoad (never aged). *dedup (may be
 * NULL) tells whether an equal entry was already present (then m is not
 * kept). Dynamic models get their seq here.
 */
oa_status oa_opcache_register(oa_opmodel *m, bool static_reg, bool *dedup) OA_MUST_CHECK;

/*
 * Looks a request up as CANN's MatchOpModel does. [out] *out: a new
 * reference to the matched model. OA_E_OP_NOT_FOUND on a miss (reported
 * only when report is true: CANN reports misses of execution requests, not
 * of compile requests, which go on to compile); OA_E_PARAM for dynamic
 * request descs at execution (reported).
 */
oa_status oa_opcache_match(const oa_opreq *req, bool report, oa_opmodel **out) OA_MUST_CHECK;

/* The limit (aclopSetMaxOpQueueNum; the aclInit config value until then or when aclInit changes it). */
void oa_opcache_set_max(uint64_t max);
uint64_t oa_opcache_max(void);
/* Entries currently held (static and dynamic). */
uint64_t oa_opcache_count(void);
/* Process flag: a Cast model with a `truncate` attr was registered (aclopCast then passes truncate). */
bool oa_opcache_cast_has_truncate(void);
/* Next value of the process-wide logical clock (registrations and hits). */
uint64_t oa_opcache_tick(void);
/* Drops every entry and the shape-range table (unit tests). */
void oa_opcache_reset_for_tests(void);

/* ---- global compile state (op_compiler_api.c) ---- */

/* aclopSetCompileFlag: 0 default, 1 fuzzy. */
int oa_aclop_compile_flag(void);
/* ACL_OP_JIT_COMPILE: 1 enabled (CANN's initial value), 0 disabled. */
int oa_aclop_jit_compile(void);

#endif /* OA_ACL_OP_OP_MODEL_H */

/*
 * Profiling internals shared with aclInit/aclFinalize and the executors
 * that report operator timings and ACL API spans.
 *
 * A session is written when it stops as CANN's PROF_* tree (a Chrome-trace
 * timeline, op_summary and op_statistic CSVs; docs/profiling.md).
 * Timestamps are CLOCK_MONOTONIC nanoseconds.
 */
#ifndef OA_PROF_PROF_INTERNAL_H
#define OA_PROF_PROF_INTERNAL_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "acl/acl_prof.h"
#include "base/status.h"

/*
 * aclInit: profiler settings from acl.json ("profiler" object, may be NULL)
 * or, when env_text is not NULL/empty, from PROFILER_SAMPLECONFIG (which
 * wins). Invalid settings -> ACL_ERROR_INVALID_PARAM. With "switch": "on"
 * profiling starts now and is written at aclFinalize.
 */
oa_status oa_prof_apply_init_config(const cJSON *profiler, const char *env_text) OA_MUST_CHECK;

/* A failed aclInit: undoes oa_prof_apply_init_config only. */
void oa_prof_cancel_init_config(void);

/* aclFinalize: stops and writes any running session (aclInit's or the API's) and resets the profiler. */
void oa_prof_on_acl_finalize(void);

/* True while profiling collects data; data_types gets the ACL_PROF_* switches. */
bool oa_prof_running(uint64_t *data_types);

/* Records a complete event (e.g. one operator or API call) when profiling runs. */
void oa_prof_record_span(const char *category, const char *name, uint64_t start_ns, uint64_t end_ns);

/*
 * Operator records (docs/profiling.md): the executors report every task
 * they run while oa_prof_active() (a relaxed atomic load: their one branch
 * per run) and the profiler puts it in the session's trace and CSVs and, for
 * a subscribed model, writes a subscription record to the subscriber.
 */
#define OA_PROF_SINGLE_OP_MODEL_ID 4294967295u

typedef struct oa_prof_tensor {
    int32_t dtype;  /* aclDataType */
    int32_t format; /* aclFormat */
    int32_t rank;
    const int64_t *dims;
} oa_prof_tensor;

typedef struct oa_prof_op {
    const char *name;
    const char *type;       /* GE type */
    uint32_t model_id;      /* OA_PROF_SINGLE_OP_MODEL_ID for single operators */
    uint32_t task_id;
    uint32_t stream_id;
    bool dynamic;           /* OP State: dynamic (model_v2) or static */
    const oa_prof_tensor *in;
    size_t n_in;
    const oa_prof_tensor *out;
    size_t n_out;
    uint64_t start_ns;      /* CLOCK_MONOTONIC (oa_now_ns) */
    uint64_t end_ns;
} oa_prof_op;

/* True while a session collects task times or a model is subscribed. */
bool oa_prof_active(void);

/* Reports one executed operator (see above). */
void oa_prof_record_op(const oa_prof_op *op);

/*
 * ACL API spans (ACL_PROF_ACL_API): t0 = oa_prof_api_begin() at the entry
 * of a public function (0 when off: one relaxed load), oa_prof_api_end(name,
 * t0) before it returns.
 */
extern _Atomic uint64_t oa_prof_api_gate; /* the session's data types (prof.c), read without a lock */
uint64_t oa_prof_api_now(void);
static inline uint64_t oa_prof_api_begin(void)
{
    /* off: one relaxed load and one branch predicted not taken */
    if (__builtin_expect((atomic_load_explicit(&oa_prof_api_gate, memory_order_relaxed) & ACL_PROF_ACL_API) == 0, 1)) {
        return 0;
    }
    return oa_prof_api_now();
}
void oa_prof_api_end(const char *api, uint64_t t0);

/*
 * The same span over a whole function body: OA_PROF_API_SPAN(); as the first
 * statement records from there to every return (named after the function).
 * Off: one relaxed load and a not-taken branch at entry, a not-taken branch at exit.
 */
typedef struct oa_prof_span {
    uint64_t t0;
    const char *api;
} oa_prof_span;
static inline void oa_prof_span_close(oa_prof_span *s)
{
    if (__builtin_expect(s->t0 != 0, 0)) {
        oa_prof_api_end(s->api, s->t0);
    }
}
#define OA_PROF_API_SPAN()                                                                                          \
    oa_prof_span oa_prof_span_ __attribute__((cleanup(oa_prof_span_close), unused)) = {oa_prof_api_begin(), __func__}

#endif /* OA_PROF_PROF_INTERNAL_H */

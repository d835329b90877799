/*
 * Profiling internals shared with aclInit/aclFinalize and, later, the
 * executors that report operator timings.
 *
 * Recorded events are written as a Chrome trace ("Trace Event Format" JSON,
 * loadable in chrome://tracing or Perfetto) when profiling stops:
 *   <result path>/PROF_<seq>_<yyyymmddhhmmss>_<pid>/openacl_trace.json
 * Timestamps are CLOCK_MONOTONIC microseconds.
 */
#ifndef OA_PROF_PROF_INTERNAL_H
#define OA_PROF_PROF_INTERNAL_H

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
 * Operator information records handed to subscribers (fd of
 * aclprofCreateSubscribeConfig) and read with aclprofGetOp*: a buffer is an
 * array of these fixed-size records. signature is a 32-bit FNV-1a hash of
 * the bytes after it, so corrupted or foreign buffers are rejected.
 */
#define OA_PROF_OP_DESC_VERSION 1u
typedef struct oa_prof_op_desc {
    uint32_t signature;
    uint32_t version;  /* OA_PROF_OP_DESC_VERSION */
    uint32_t model_id;
    uint32_t flag;     /* aclprofSubscribeOpFlag */
    uint64_t start_ns; /* CLOCK_MONOTONIC */
    uint64_t end_ns;
    uint64_t duration_ns;
    uint64_t thread_id;
    uint32_t device_id;
    uint32_t reserved;
    char op_type[ACL_PROF_MAX_OP_TYPE_LEN]; /* NUL-terminated */
    char op_name[ACL_PROF_MAX_OP_NAME_LEN];
    uint8_t pad[6];
} oa_prof_op_desc;

/* Fills one record (names truncated to the field sizes) and its signature. */
void oa_prof_op_desc_fill(oa_prof_op_desc *d, uint32_t model_id, aclprofSubscribeOpFlag flag, const char *op_type,
                          const char *op_name, uint64_t start_ns, uint64_t end_ns, uint64_t thread_id,
                          uint32_t device_id);

#endif /* OA_PROF_PROF_INTERNAL_H */

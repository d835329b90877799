/*
 * Between the session side of the profiler (prof.c) and its operator
 * records (prof_ops.c). The executors' side is prof_internal.h.
 */
#ifndef OA_PROF_PROF_OPS_H
#define OA_PROF_PROF_OPS_H

#include <stdbool.h>

#include <cjson/cJSON.h>

#include "base/status.h"
#include "prof/prof_internal.h"

/* sizeof CANN's ProfOpDesc: one subscription record (docs/profiling.md). */
#define OA_PROF_OP_DESC_SIZE 80u

/* A session starts collecting operator records. */
void oa_prof_ops_begin(void);

/* Drops the records and stops collecting. */
void oa_prof_ops_clear(void);

/*
 * Appends the records as complete events to events (pid pid_hw) and writes
 * op_summary_<stamp>.csv and op_statistic_<stamp>.csv into out_dir.
 */
oa_status oa_prof_ops_write(const char *out_dir, const char *stamp, cJSON *events, int pid_hw) OA_MUST_CHECK;

/* True while aclprofInit or acl.json configured profiling (prof.c). */
bool oa_prof_session_configured(void);

#endif /* OA_PROF_PROF_OPS_H */

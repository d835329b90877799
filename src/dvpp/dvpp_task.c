/*
 * DVPP operations run as tasks of the runtime's streams (src/acl_rt/rt_stream.h):
 * in submission order with the stream's other work, errors reported by the
 * next aclrtSynchronizeStream. A job is a heap record the operation filled
 * at submission (checked geometry, pointers); the task owns and frees it.
 */
#include <stdbool.h>
#include <stdlib.h>

#define OA_LOG_MODULE "ASCENDCL"
#include "acl_rt/rt_stream.h"
#include "base/error.h"
#include "dvpp/dvpp_internal.h"

typedef struct dvpp_task_args {
    oa_dvpp_job_run run;
    void *job;
} dvpp_task_args;

static oa_status task_run(void *args, const oa_task_exec *exec)
{
    (void)exec;
    const dvpp_task_args *a = args;
    return a->run(a->job);
}

static void task_release(void *args)
{
    dvpp_task_args *a = args;
    free(a->job);
    a->job = NULL;
}

oa_status oa_dvpp_submit(aclrtStream stream, oa_dvpp_job_run run, void *job)
{
    oa_stream *s = NULL;
    oa_status st = oa_stream_acquire(stream, &s);
    if (st != OA_OK) {
        free(job);
        return st;
    }
    const dvpp_task_args a = {run, job};
    const oa_task_desc desc = {
        .kind = OA_TASK_KIND_GENERIC, .run = task_run, .release = task_release, .args = &a, .args_size = sizeof(a)};
    st = oa_stream_submit(s, &desc, NULL);
    if (st != OA_OK) {
        free(job);
    }
    oa_stream_release(s);
    return st;
}

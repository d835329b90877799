/* Shared by the program builder (v1_program.c) and the runner (v1_run.c). */
#ifndef OA_MODEL_V1_V1_INTERNAL_H
#define OA_MODEL_V1_V1_INTERNAL_H

#include "model_v1/v1_program.h"

/* The task functions the builder puts in the task array. */
oa_status oa_v1_task_kernel(const v1_task *t, v1_exec *x);
oa_status oa_v1_task_copy(const v1_task *t, v1_exec *x);
oa_status oa_v1_task_gear_index(const v1_task *t, v1_exec *x);
oa_status oa_v1_task_case(const v1_task *t, v1_exec *x);

/* OPENACL_V1_PROFILE: the per-task times (stderr). */
void oa_v1_prof_print(const oa_v1_program *p);

#endif

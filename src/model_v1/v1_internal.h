/* Shared by the program builder (v1_program.c) and the runner (v1_run.c). */
#ifndef OA_MODEL_V1_V1_INTERNAL_H
#define OA_MODEL_V1_V1_INTERNAL_H

#include "model_v1/v1_program.h"

/* OPENACL_V1_PROFILE: the per-task times (stderr). */
void oa_v1_prof_print(const oa_v1_program *p);

/*
 * Workspaces in the feature map (v1_wsplace.c): kernels whose workspace is
 * at least OA_V1_WS_PLACE_MIN bytes get one more pointer after their
 * outputs (NULL: the shared workspace) and oa_v1_task_kernel_ws as their
 * record function; oa_v1_place_workspaces, after the build, points those it
 * can into bytes of the feature map that are free while the kernel runs and
 * sets ws_size to the largest of the rest.
 */
#define OA_V1_WS_PLACE_MIN ((size_t)64 * 1024)
void oa_v1_place_workspaces(oa_v1_program *p);
oa_status oa_v1_task_kernel_ws(const oa_prog_task *t, oa_prog_exec *x);

#endif

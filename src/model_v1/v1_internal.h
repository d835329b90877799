/* Shared by the program builder (v1_program.c) and the runner (v1_run.c). */
#ifndef OA_MODEL_V1_V1_INTERNAL_H
#define OA_MODEL_V1_V1_INTERNAL_H

#include "model_v1/v1_program.h"

/* OPENACL_V1_PROFILE: the per-task times (stderr). */
void oa_v1_prof_print(const oa_v1_program *p);

#endif

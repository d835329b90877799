/* Internals of aclInit for other acl_base files and tests. */
#ifndef OA_ACL_BASE_INIT_INTERNAL_H
#define OA_ACL_BASE_INIT_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Device limits from acl.json, kept for the runtime: index 0..2 of stack
 * sizes = aicore, simt, simt divergence; 0..1 of FIFO sizes = simd per core,
 * simt; event_mode -1 when not configured.
 */
typedef struct oa_acl_runtime_limits {
    bool stack_size_set[3];
    uint64_t stack_size[3];
    bool printf_fifo_set[2];
    uint64_t printf_fifo_size[2];
    int event_mode;
} oa_acl_runtime_limits;

oa_acl_runtime_limits oa_acl_config_runtime_limits(void);

/* Forgets the first config text (tests run several configurations in one process). */
void oa_acl_reset_for_tests(void);

#endif

/*
 * aclInit configuration file (acl.json) handling, separated from the init
 * state machine so every rule can be unit-tested:
 *
 *  - oa_acl_cfg_read: the raw text aclInit hands to init callbacks and
 *    compares with the first successful aclInit (realpath/open failure ->
 *    ACL_ERROR_INVALID_FILE; a directory reads as empty text);
 *  - oa_acl_cfg_load: CANN's checks before parsing: regular file, at most
 *    10 MiB (else ACL_ERROR_INVALID_FILE), brace/bracket nesting at most 10
 *    each, counted on the raw characters up to the first NUL (else
 *    ACL_ERROR_PARSE_FILE), then JSON parsing (ACL_ERROR_PARSE_FILE); an
 *    empty file gives an empty configuration (*root == NULL);
 *  - one function per top-level key, each returning CANN's code for a bad
 *    value. Keys are looked up case-sensitively; unknown keys are ignored.
 */
#ifndef OA_ACL_STATE_CONFIG_H
#define OA_ACL_STATE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/status.h"

#define OA_ACL_CONFIG_MAX_BYTES (10 * 1024 * 1024)
#define OA_ACL_CONFIG_MAX_DEPTH 10
#define OA_ACL_DEFAULT_MAX_OPQUEUE_NUM 20000u

/* Reads the whole file into a malloc'ed, NUL-terminated buffer (*len excludes the NUL). */
oa_status oa_acl_cfg_read(const char *path, char **text, size_t *len) OA_MUST_CHECK;

/* Validates and parses path; *root is NULL for an empty file. Caller frees with cJSON_Delete. */
oa_status oa_acl_cfg_load(const char *path, cJSON **root) OA_MUST_CHECK;

/* Deepest '{' and '[' nesting in text[0..len) (stops at the first NUL). */
void oa_acl_cfg_depth(const char *text, size_t len, size_t *obj_depth, size_t *arr_depth);

/* "err_msg_mode": the string "0" or "1" (absent -> *found false). Other -> ACL_ERROR_INVALID_PARAM. */
oa_status oa_acl_cfg_err_msg_mode(const cJSON *root, bool *found, int *mode) OA_MUST_CHECK;

/* "max_opqueue_num": decimal prefix of the value's text (quotes stripped) must be > 0. */
oa_status oa_acl_cfg_max_opqueue_num(const cJSON *root, bool *found, uint64_t *value) OA_MUST_CHECK;

/* "StackSize": {"aicore_stack_size", "simt_stack_size", "simt_divergence_stack_size"}: numbers. */
typedef struct oa_acl_stack_sizes {
    bool has[3];
    uint64_t value[3];
} oa_acl_stack_sizes;
oa_status oa_acl_cfg_stack_sizes(const cJSON *root, oa_acl_stack_sizes *out) OA_MUST_CHECK;

/* "defaultDevice": {"default_device": "<0 or positive decimal>"}; *device_id = -1 when absent. */
oa_status oa_acl_cfg_default_device(const cJSON *root, int32_t *device_id) OA_MUST_CHECK;

/* "simd_printf_fifo_size_per_core", "simt_printf_fifo_size": positive JSON integers. */
typedef struct oa_acl_fifo_sizes {
    bool has[2];
    uint64_t value[2];
} oa_acl_fifo_sizes;
oa_status oa_acl_cfg_fifo_sizes(const cJSON *root, oa_acl_fifo_sizes *out) OA_MUST_CHECK;

/* "acl_graph": {"event_mode": "0" | "1"}; *mode = -1 when absent. */
oa_status oa_acl_cfg_event_mode(const cJSON *root, int *mode) OA_MUST_CHECK;

#endif /* OA_ACL_STATE_CONFIG_H */

/*
 * Parsed "dump" configuration (from aclInit's acl.json or aclmdlSetDump),
 * for the executors that write dump files.
 *
 * Validation follows CANN's dump component: field types, enumerated
 * values, dump_path (an existing, readable and writable directory, or
 * "<ipv4>:<path>"), dump_step ("a|b-c", at most 100 parts), dump_list
 * entries, blacklists (dump_level "op" only, at most 100 entries each),
 * opname_range and dump_stats (needs dump_data "stats"). Any violation is
 * ACL_ERROR_INVALID_DUMP_CONFIG (100009).
 *
 * Executors use the state functions at the end: oa_dump_enabled() to test
 * cheaply, oa_dump_current_config() for a private copy, and
 * oa_dump_config_selects() to decide per operator; oa_dump_emit() writes a
 * dump file (or hands it to the callback registered with acldumpRegCallback).
 */
#ifndef OA_DUMP_DUMP_CONFIG_H
#define OA_DUMP_DUMP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "base/status.h"

typedef enum { OA_DUMP_MODE_INPUT, OA_DUMP_MODE_OUTPUT, OA_DUMP_MODE_ALL } oa_dump_mode;
typedef enum { OA_DUMP_LEVEL_OP, OA_DUMP_LEVEL_KERNEL, OA_DUMP_LEVEL_ALL } oa_dump_level;
typedef enum { OA_DUMP_DATA_TENSOR, OA_DUMP_DATA_STATS } oa_dump_data;

/* dump_stats bits */
enum {
    OA_DUMP_STAT_MAX = 1u << 0,
    OA_DUMP_STAT_MIN = 1u << 1,
    OA_DUMP_STAT_AVG = 1u << 2,
    OA_DUMP_STAT_NAN = 1u << 3,
    OA_DUMP_STAT_NEG_INF = 1u << 4,
    OA_DUMP_STAT_POS_INF = 1u << 5,
    OA_DUMP_STAT_L2NORM = 1u << 6
};

/* One dump_list entry. */
typedef struct oa_dump_model {
    char *model_name;        /* NULL when the entry has no model_name */
    char **layers;           /* layer (op) names; has_layers false = every layer */
    size_t layer_count;
    bool has_layers;
    char **watcher_nodes;
    size_t watcher_count;
    char **optype_blacklist; /* "name" of each optype_blacklist entry */
    size_t optype_blacklist_count;
    char **opname_blacklist;
    size_t opname_blacklist_count;
    char **range_begin;      /* opname_range pairs */
    char **range_end;
    size_t range_count;
} oa_dump_model;

typedef struct oa_dump_config {
    char *dump_path;        /* as configured (NULL when absent) */
    oa_dump_mode mode;      /* default output */
    oa_dump_level level;    /* default all */
    oa_dump_data data;      /* default tensor */
    bool op_switch;         /* dump_op_switch "on": single operators too */
    bool debug;             /* dump_debug "on": overflow dump */
    char *scene;            /* dump_scene or NULL */
    char *step;             /* dump_step or NULL ("" means every step) */
    uint32_t stats;         /* OA_DUMP_STAT_* bits */
    oa_dump_model *models;
    size_t model_count;
    char *section_json;     /* the whole "dump" object, unformatted */
    char time_dir[16];      /* local time of the configuration, %Y%m%d%H%M%S: the {time} directory */
} oa_dump_config;

/*
 * Validates the "dump" member of root (a whole acl.json object). *cfg is
 * NULL when there is nothing to dump (no section, empty section, or a
 * section that enables nothing). config_path is only used in messages.
 */
oa_status oa_dump_config_from_json(const cJSON *root, const char *config_path, oa_dump_config **cfg) OA_MUST_CHECK;

/* Same from JSON text; unparsable text is ACL_ERROR_INVALID_DUMP_CONFIG. */
oa_status oa_dump_config_parse(const char *text, size_t len, const char *config_path,
                               oa_dump_config **cfg) OA_MUST_CHECK;

void oa_dump_config_destroy(oa_dump_config *cfg);

/* True when step k is selected by a (validated) dump_step text ("" or NULL: every step). */
bool oa_dump_step_selected(const char *step, uint64_t k);

/* The base name of path without its extension, into buf ("" when path is NULL): a model's .om name. */
const char *oa_dump_om_name(const char *path, char *buf, size_t cap);
oa_dump_config *oa_dump_config_clone(const oa_dump_config *cfg);

/* True when the configuration dumps op_name of model_name (model_name NULL: single-operator execution). */
bool oa_dump_config_selects(const oa_dump_config *cfg, const char *model_name, const char *op_name);

/* ---- process state, set by aclInit / aclmdlSetDump, cleared by aclmdlFinalizeDump / aclFinalize ---- */

/* aclInit with a config path: validates the file and applies its "dump" section. */
oa_status oa_dump_apply_init_config(const char *config_path) OA_MUST_CHECK;

/* aclFinalize: drops the configuration that aclInit installed. */
void oa_dump_on_finalize(void);

/* Deep copy of the active configuration (NULL when none); free with oa_dump_config_destroy. */
oa_dump_config *oa_dump_current_config(void);

/* Same for single operators: the active one when it has dump_op_switch on, else aclopStartDumpArgs'. */
oa_dump_config *oa_dump_current_op_config(void);

/* Writes data as dump file file_name (absolute path), or passes it in chunks to the registered callback. */
oa_status oa_dump_emit(const char *file_name, const void *data, size_t len) OA_MUST_CHECK;

#endif /* OA_DUMP_DUMP_CONFIG_H */

/* Validation and representation of the "dump" configuration (dump_config.h). */
#include "dump/dump_config.h"

#include <ctype.h>
#include <stdio.h>
#include <time.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"

#define DUMP_PATH_MAX_LEN 512
#define DUMP_STEP_MAX_PARTS 100
#define DUMP_BLACKLIST_MAX 100

#define BAD(...) OA_FAIL(OA_E_DUMP_CONFIG, __VA_ARGS__)

typedef struct {
    const char *key;
    const char *const *values;
} enum_field;

static const char *const kModes[] = {"input", "output", "all", NULL};
static const char *const kData[] = {"tensor", "stats", NULL};
static const char *const kOnOff[] = {"on", "off", NULL};
static const char *const kLevels[] = {"op", "kernel", "all", NULL};
static const char *const kScenes[] = {"lite_exception", "aic_err_brief_dump", "aic_err_norm_dump",
                                      "aic_err_detail_dump", "watcher", NULL};
static const char *const kKernelData[] = {"all", "printf", "tensor", "assert", "timestamp", NULL};
static const char *const kStats[] = {"Max", "Min", "Avg", "Nan", "Negative Inf", "Positive Inf", "L2norm", NULL};

static int index_of(const char *const *list, const char *v)
{
    for (int i = 0; list[i] != NULL; ++i) {
        if (strcmp(list[i], v) == 0) {
            return i;
        }
    }
    return -1;
}

static const cJSON *member(const cJSON *obj, const char *key)
{
    return cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
}

/* String member value or NULL when absent (types are checked before this is used). */
static const char *str_member(const cJSON *obj, const char *key)
{
    const cJSON *v = member(obj, key);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static const char *str_or(const cJSON *obj, const char *key, const char *dflt)
{
    const char *v = str_member(obj, key);
    return v != NULL ? v : dflt;
}

/* ---- type checks ---- */

static oa_status check_string(const cJSON *obj, const char *key, const char *where)
{
    const cJSON *v = member(obj, key);
    if (v != NULL && !cJSON_IsString(v)) {
        return BAD("dump config item [%s%s] must be a string", where, key);
    }
    return OA_OK;
}

static oa_status check_array_of(const cJSON *arr, bool strings, const char *where)
{
    if (!cJSON_IsArray(arr)) {
        return BAD("dump config item [%s] must be an array", where);
    }
    int i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        if (strings ? !cJSON_IsString(it) : !cJSON_IsObject(it)) {
            return BAD("dump config item [%s[%d]] must be %s", where, i, strings ? "a string" : "an object");
        }
        ++i;
    }
    return OA_OK;
}

static oa_status check_named_list(const cJSON *arr, const char *where, const char *k1, const char *k2,
                                  bool k2_is_array)
{
    oa_status st = check_array_of(arr, false, where);
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        if (st != OA_OK) {
            break;
        }
        st = check_string(it, k1, where);
        if (st == OA_OK && member(it, k2) != NULL) {
            st = k2_is_array ? check_array_of(member(it, k2), true, where) : check_string(it, k2, where);
        }
    }
    return st;
}

static oa_status check_types(const cJSON *dump)
{
    static const char *const kStringFields[] = {"dump_path",  "dump_mode",  "dump_op_switch",
                                                "dump_level", "dump_scene", "dump_data",
                                                "dump_debug", "dump_kernel_data", "dump_step"};
    for (size_t i = 0; i < OA_ARRAY_SIZE(kStringFields); ++i) {
        oa_status st = check_string(dump, kStringFields[i], "");
        if (st != OA_OK) {
            return st;
        }
    }
    if (member(dump, "dump_stats") != NULL) {
        oa_status st = check_array_of(member(dump, "dump_stats"), true, "dump_stats");
        if (st != OA_OK) {
            return st;
        }
    }
    const cJSON *list = member(dump, "dump_list");
    if (list == NULL) {
        return OA_OK;
    }
    oa_status st = check_array_of(list, false, "dump_list");
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
    {
        if (st != OA_OK) {
            break;
        }
        st = check_string(item, "model_name", "dump_list[].");
        if (st == OA_OK && member(item, "layer") != NULL) {
            st = check_array_of(member(item, "layer"), true, "dump_list[].layer");
        }
        if (st == OA_OK && member(item, "watcher_nodes") != NULL) {
            st = check_array_of(member(item, "watcher_nodes"), true, "dump_list[].watcher_nodes");
        }
        if (st == OA_OK && member(item, "optype_blacklist") != NULL) {
            st = check_named_list(member(item, "optype_blacklist"), "dump_list[].optype_blacklist", "name", "pos",
                                  true);
        }
        if (st == OA_OK && member(item, "opname_blacklist") != NULL) {
            st = check_named_list(member(item, "opname_blacklist"), "dump_list[].opname_blacklist", "name", "pos",
                                  true);
        }
        if (st == OA_OK && member(item, "opname_range") != NULL) {
            st = check_named_list(member(item, "opname_range"), "dump_list[].opname_range", "begin", "end", false);
        }
    }
    return st;
}

/* ---- value checks ---- */

static oa_status check_enum(const char *key, const char *value, const char *const *values)
{
    if (value[0] == '\0') {
        return BAD("dump config item [%s] must not be empty", key);
    }
    if (index_of(values, value) < 0) {
        return BAD("dump config item [%s] has invalid value [%s]", key, value);
    }
    return OA_OK;
}

static oa_status check_values(const cJSON *dump)
{
    static const enum_field kFields[] = {{"dump_mode", kModes},       {"dump_data", kData},
                                         {"dump_op_switch", kOnOff},  {"dump_level", kLevels},
                                         {"dump_debug", kOnOff},      {"dump_scene", kScenes}};
    for (size_t i = 0; i < OA_ARRAY_SIZE(kFields); ++i) {
        const char *v = str_member(dump, kFields[i].key);
        if (v != NULL) {
            oa_status st = check_enum(kFields[i].key, v, kFields[i].values);
            if (st != OA_OK) {
                return st;
            }
        }
    }
    const char *kd = str_member(dump, "dump_kernel_data");
    if (kd != NULL) {
        /* comma-separated; an empty element (including a trailing comma) is invalid */
        const char *p = kd;
        for (;;) {
            const char *comma = strchr(p, ',');
            const size_t n = comma == NULL ? strlen(p) : (size_t)(comma - p);
            char part[32];
            if (n >= sizeof(part)) {
                return BAD("dump config item [dump_kernel_data] has invalid value [%s]", kd);
            }
            memcpy(part, p, n);
            part[n] = '\0';
            oa_status st = check_enum("dump_kernel_data", part, kKernelData);
            if (st != OA_OK) {
                return st;
            }
            if (comma == NULL) {
                break;
            }
            p = comma + 1;
        }
    }
    const cJSON *stats = member(dump, "dump_stats");
    const cJSON *it;
    cJSON_ArrayForEach(it, stats)
    {
        oa_status st = check_enum("dump_stats", it->valuestring, kStats);
        if (st != OA_OK) {
            return st;
        }
    }
    return OA_OK;
}

/* ---- constraints ---- */

static bool is_on(const cJSON *dump, const char *key)
{
    const char *v = str_member(dump, key);
    return v != NULL && strcmp(v, "on") == 0;
}

static bool valid_dir_chars(const char *p)
{
    static const char kExtra[] = "-=[];\\,./!@#$%^&*()_+{}:?";
    if (*p == '\0') {
        return false;
    }
    for (; *p != '\0'; ++p) {
        if (!isalnum((unsigned char)*p) && strchr(kExtra, *p) == NULL) {
            return false;
        }
    }
    return true;
}

/* "a.b.c.d:" prefix with four decimal parts in [0, 255]. */
static bool has_ipv4_prefix(const char *path, const char **after)
{
    const char *colon = strchr(path, ':');
    if (colon == NULL || colon[1] == '\0') {
        return false;
    }
    int parts = 0;
    const char *p = path;
    while (p < colon) {
        const char *dot = memchr(p, '.', (size_t)(colon - p));
        const char *end = dot == NULL ? colon : dot;
        if (end == p || end - p > 3) {
            return false;
        }
        int v = 0;
        for (const char *q = p; q < end; ++q) {
            if (!isdigit((unsigned char)*q)) {
                return false;
            }
            v = v * 10 + (*q - '0');
        }
        if (v > 255) {
            return false;
        }
        ++parts;
        p = dot == NULL ? colon : dot + 1;
    }
    if (parts != 4) {
        return false;
    }
    *after = colon + 1;
    return true;
}

static oa_status check_dump_path(const cJSON *dump)
{
    const char *path = str_member(dump, "dump_path");
    if (path == NULL) {
        return BAD("dump config item [dump_path] is required");
    }
    if (path[0] == '\0') {
        return BAD("dump config item [dump_path] must not be empty");
    }
    if (strlen(path) > DUMP_PATH_MAX_LEN) {
        return BAD("dump config item [dump_path] is longer than %d characters", DUMP_PATH_MAX_LEN);
    }
    const char *after = NULL;
    if (has_ipv4_prefix(path, &after)) {
        if (!valid_dir_chars(after)) {
            return BAD("dump_path [%s] contains invalid characters", after);
        }
        /* CANN sends such dumps to a dump server on that host; there is none here (docs/dump.md) */
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "dump_path [%s] names a remote host: dumping to another host is "
                       "not supported, give a local directory", path);
    }
    char real[PATH_MAX];
    struct stat sb;
    if (realpath(path, real) == NULL) {
        return BAD("dump_path [%s] does not exist", path);
    }
    if (stat(real, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        return BAD("dump_path [%s] is not a directory", path);
    }
    if (access(real, R_OK | W_OK) != 0) {
        return BAD("dump_path [%s] is not readable and writable", path);
    }
    return OA_OK;
}

static bool all_digits(const char *s, size_t n)
{
    if (n == 0) {
        return false;
    }
    for (size_t i = 0; i < n; ++i) {
        if (!isdigit((unsigned char)s[i])) {
            return false;
        }
    }
    return true;
}

static oa_status check_dump_step(const cJSON *dump)
{
    const char *step = str_or(dump, "dump_step", "");
    if (step[0] == '\0') {
        return OA_OK;
    }
    size_t parts = 1;
    for (const char *p = step; *p != '\0'; ++p) {
        parts += (*p == '|');
    }
    if (parts > DUMP_STEP_MAX_PARTS) {
        return BAD("dump_step [%s] has more than %d intervals", step, DUMP_STEP_MAX_PARTS);
    }
    const char *p = step;
    for (size_t i = 0; i < parts; ++i) {
        const char *bar = strchr(p, '|');
        const size_t n = bar == NULL ? strlen(p) : (size_t)(bar - p);
        const char *dash = memchr(p, '-', n);
        if (dash != NULL && memchr(dash + 1, '-', n - (size_t)(dash - p) - 1) != NULL) {
            return BAD("dump_step[%zu] has an invalid format", i);
        }
        const size_t n1 = dash == NULL ? n : (size_t)(dash - p);
        const char *p2 = dash == NULL ? p : dash + 1;
        const size_t n2 = dash == NULL ? n : n - n1 - 1;
        if (!all_digits(p, n1) || !all_digits(p2, n2)) {
            return BAD("dump_step[%zu] must contain digits only", i);
        }
        if (dash != NULL && strtoull(p, NULL, 10) >= strtoull(p2, NULL, 10)) {
            return BAD("dump_step[%zu] [%.*s] is not a range with its start below its end", i, (int)n, p);
        }
        p = bar == NULL ? p + n : bar + 1;
    }
    return OA_OK;
}

static size_t array_size(const cJSON *v)
{
    return cJSON_IsArray(v) ? (size_t)cJSON_GetArraySize(v) : 0;
}

static oa_status check_dump_list(const cJSON *dump, const char *level)
{
    const cJSON *list = member(dump, "dump_list");
    if (array_size(list) == 0) {
        return OA_OK;
    }
    const bool switch_off = strcmp(str_or(dump, "dump_op_switch", "off"), "off") == 0;
    const char *scene = str_or(dump, "dump_scene", "");
    const bool watcher = strcmp(scene, "watcher") == 0;
    const bool level_op = strcmp(level, "op") == 0;
    int i = 0;
    const cJSON *item;
    cJSON_ArrayForEach(item, list)
    {
        const cJSON *model = member(item, "model_name");
        const cJSON *layer = member(item, "layer");
        const cJSON *nodes = member(item, "watcher_nodes");
        if (switch_off && model != NULL && model->valuestring[0] == '\0') {
            return BAD("dump_list[%d].model_name must not be empty", i);
        }
        if (switch_off && layer != NULL && array_size(layer) == 0) {
            return BAD("dump_list[%d].layer must not be empty", i);
        }
        if (watcher) {
            if (nodes == NULL) {
                return BAD("dump_list[%d].watcher_nodes is required when dump_scene is watcher", i);
            }
            if (array_size(nodes) == 0) {
                return BAD("dump_list[%d].watcher_nodes must not be empty", i);
            }
            if (model != NULL) {
                return BAD("dump_list[%d].model_name cannot be set when dump_scene is watcher", i);
            }
        } else if (array_size(nodes) != 0) {
            return BAD("dump_list[%d].watcher_nodes can only be set when dump_scene is watcher", i);
        }
        const size_t optypes = array_size(member(item, "optype_blacklist"));
        const size_t opnames = array_size(member(item, "opname_blacklist"));
        if (optypes > DUMP_BLACKLIST_MAX || opnames > DUMP_BLACKLIST_MAX) {
            return BAD("dump_list[%d] has a blacklist with more than %d entries", i, DUMP_BLACKLIST_MAX);
        }
        if ((optypes != 0 || opnames != 0) && !level_op) {
            return BAD("dump_list[%d] blacklists need dump_level \"op\"", i);
        }
        const cJSON *ranges = member(item, "opname_range");
        if (array_size(ranges) != 0) {
            if (!level_op) {
                return BAD("dump_list[%d].opname_range needs dump_level \"op\"", i);
            }
            if (model == NULL) {
                return BAD("dump_list[%d].model_name is required with opname_range", i);
            }
            if (model->valuestring[0] == '\0') {
                return BAD("dump_list[%d].model_name must not be empty", i);
            }
            const cJSON *r;
            cJSON_ArrayForEach(r, ranges)
            {
                if (str_or(r, "begin", "")[0] == '\0' || str_or(r, "end", "")[0] == '\0') {
                    return BAD("dump_list[%d].opname_range needs both begin and end", i);
                }
            }
        }
        ++i;
    }
    return OA_OK;
}

static oa_status check_constraints(const cJSON *dump)
{
    const char *scene = str_member(dump, "dump_scene");
    if (scene != NULL) {
        if (is_on(dump, "dump_debug")) {
            return BAD("dump_debug cannot be \"on\" when dump_scene is %s", scene);
        }
        if (is_on(dump, "dump_op_switch")) {
            return BAD("dump_op_switch cannot be \"on\" when dump_scene is %s", scene);
        }
        if (strcmp(scene, "watcher") == 0 && strcmp(str_or(dump, "dump_mode", "output"), "output") != 0) {
            return BAD("dump_mode must be output when dump_scene is watcher");
        }
        if (strcmp(scene, "watcher") != 0) {
            return OA_OK; /* exception dump scenes need nothing else */
        }
    }
    oa_status st = check_dump_path(dump);
    if (st != OA_OK) {
        return st;
    }
    if (is_on(dump, "dump_debug")) {
        if (is_on(dump, "dump_op_switch")) {
            return BAD("dump_op_switch cannot be \"on\" when dump_debug is \"on\"");
        }
        /* the overflow dump writes the operators that overflowed; openacl records overflow (aclrtGetOverflowStatus)
         * but writes no overflow dump, so the setting is refused rather than accepted without effect */
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "dump_debug [on] (overflow dump) is not supported: query overflow "
                       "with aclrtGetOverflowStatus; use dump_list / dump_op_switch to dump operators");
    }
    st = check_dump_step(dump);
    if (st == OA_OK) {
        st = check_dump_list(dump, str_or(dump, "dump_level", "all"));
    }
    if (st == OA_OK && strcmp(str_or(dump, "dump_level", "all"), "kernel") == 0) {
        /* kernel level selects the kernels launched directly (aclnn), which openacl does not have (docs/dump.md) */
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "dump_level [kernel] is not supported: it dumps aclnn kernels, which "
                       "openacl does not have; use \"op\" or \"all\"");
    }
    if (st == OA_OK && member(dump, "dump_stats") != NULL) {
        if (array_size(member(dump, "dump_stats")) == 0) {
            return BAD("dump_stats must not be empty");
        }
        if (strcmp(str_or(dump, "dump_data", "tensor"), "tensor") == 0) {
            return BAD("dump_stats cannot be set when dump_data is tensor");
        }
    }
    return st;
}

/* ---- representation ---- */

static char *dup_or_null(const char *s)
{
    return s == NULL ? NULL : oa_strdup(s);
}

static void free_strings(char **v, size_t n)
{
    if (v == NULL) {
        return;
    }
    for (size_t i = 0; i < n; ++i) {
        free(v[i]);
    }
    free(v);
}

/* Copies the strings of arr (or the key member of each object of arr). */
static bool copy_strings(const cJSON *arr, const char *key, char ***out, size_t *n)
{
    *out = NULL;
    *n = 0;
    const size_t count = array_size(arr);
    if (count == 0) {
        return true;
    }
    char **v = calloc(count, sizeof(char *));
    if (v == NULL) {
        return false;
    }
    size_t i = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, arr)
    {
        const char *s = key == NULL ? it->valuestring : str_or(it, key, "");
        v[i] = oa_strdup(s);
        if (v[i] == NULL) {
            free_strings(v, i);
            return false;
        }
        ++i;
    }
    *out = v;
    *n = count;
    return true;
}

static void model_deinit(oa_dump_model *m)
{
    free(m->model_name);
    free_strings(m->layers, m->layer_count);
    free_strings(m->watcher_nodes, m->watcher_count);
    free_strings(m->optype_blacklist, m->optype_blacklist_count);
    free_strings(m->opname_blacklist, m->opname_blacklist_count);
    free_strings(m->range_begin, m->range_count);
    free_strings(m->range_end, m->range_count);
}

void oa_dump_config_destroy(oa_dump_config *cfg)
{
    if (cfg == NULL) {
        return;
    }
    for (size_t i = 0; i < cfg->model_count; ++i) {
        model_deinit(&cfg->models[i]);
    }
    free(cfg->models);
    free(cfg->dump_path);
    free(cfg->scene);
    free(cfg->step);
    free(cfg->section_json);
    free(cfg);
}

static bool model_init(oa_dump_model *m, const cJSON *item)
{
    const char *name = str_member(item, "model_name");
    size_t unused = 0;
    m->model_name = dup_or_null(name);
    m->has_layers = member(item, "layer") != NULL;
    return (name == NULL || m->model_name != NULL) &&
           copy_strings(member(item, "layer"), NULL, &m->layers, &m->layer_count) &&
           copy_strings(member(item, "watcher_nodes"), NULL, &m->watcher_nodes, &m->watcher_count) &&
           copy_strings(member(item, "optype_blacklist"), "name", &m->optype_blacklist,
                        &m->optype_blacklist_count) &&
           copy_strings(member(item, "opname_blacklist"), "name", &m->opname_blacklist,
                        &m->opname_blacklist_count) &&
           copy_strings(member(item, "opname_range"), "begin", &m->range_begin, &m->range_count) &&
           copy_strings(member(item, "opname_range"), "end", &m->range_end, &unused);
}

static oa_dump_config *build_config(const cJSON *dump)
{
    oa_dump_config *cfg = calloc(1, sizeof(*cfg));
    if (cfg == NULL) {
        return NULL;
    }
    cfg->mode = (oa_dump_mode)index_of(kModes, str_or(dump, "dump_mode", "output"));
    cfg->level = (oa_dump_level)index_of(kLevels, str_or(dump, "dump_level", "all"));
    cfg->data = (oa_dump_data)index_of(kData, str_or(dump, "dump_data", "tensor"));
    cfg->op_switch = is_on(dump, "dump_op_switch");
    cfg->debug = is_on(dump, "dump_debug");
    const cJSON *it;
    cJSON_ArrayForEach(it, member(dump, "dump_stats"))
    {
        cfg->stats |= 1u << index_of(kStats, it->valuestring);
    }
    const char *path = str_member(dump, "dump_path");
    const char *scene = str_member(dump, "dump_scene");
    const char *step = str_member(dump, "dump_step");
    cfg->dump_path = dup_or_null(path);
    cfg->scene = dup_or_null(scene);
    cfg->step = dup_or_null(step);
    cfg->section_json = cJSON_PrintUnformatted(dump);
    const time_t now = time(NULL);
    struct tm tmv;
    if (localtime_r(&now, &tmv) == NULL || strftime(cfg->time_dir, sizeof cfg->time_dir, "%Y%m%d%H%M%S", &tmv) == 0) {
        snprintf(cfg->time_dir, sizeof cfg->time_dir, "%lld", (long long)now);
    }
    bool ok = (path == NULL || cfg->dump_path != NULL) && (scene == NULL || cfg->scene != NULL) &&
              (step == NULL || cfg->step != NULL) && cfg->section_json != NULL;
    const size_t n = array_size(member(dump, "dump_list"));
    if (ok && n > 0) {
        cfg->models = calloc(n, sizeof(oa_dump_model));
        ok = cfg->models != NULL;
        cJSON_ArrayForEach(it, member(dump, "dump_list"))
        {
            if (!ok) {
                break;
            }
            ok = model_init(&cfg->models[cfg->model_count++], it);
        }
    }
    if (!ok) {
        oa_dump_config_destroy(cfg);
        return NULL;
    }
    return cfg;
}

oa_status oa_dump_config_from_json(const cJSON *root, const char *config_path, oa_dump_config **cfg)
{
    *cfg = NULL;
    const cJSON *dump = member(root, "dump");
    if (dump == NULL) {
        return OA_OK;
    }
    if (!cJSON_IsObject(dump)) {
        return BAD("item [dump] of config [%s] must be an object", config_path);
    }
    if (dump->child == NULL) {
        return OA_OK;
    }
    oa_status st = check_types(dump);
    if (st == OA_OK) {
        st = check_values(dump);
    }
    if (st == OA_OK) {
        st = check_constraints(dump);
    }
    if (st != OA_OK) {
        return st;
    }
    const bool need = array_size(member(dump, "dump_list")) > 0 || is_on(dump, "dump_op_switch") ||
                      is_on(dump, "dump_debug") || member(dump, "dump_scene") != NULL;
    if (!need) {
        return OA_OK;
    }
    *cfg = build_config(dump);
    if (*cfg == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot store the dump configuration");
    }
    return OA_OK;
}

oa_status oa_dump_config_parse(const char *text, size_t len, const char *config_path, oa_dump_config **cfg)
{
    *cfg = NULL;
    cJSON *root = NULL;
    if (len > 0 && memchr(text, '\0', len) == NULL) {
        root = cJSON_ParseWithLength(text, len);
    }
    if (root == NULL) {
        return BAD("dump config [%s] is not valid JSON", config_path);
    }
    const oa_status st = oa_dump_config_from_json(root, config_path, cfg);
    cJSON_Delete(root);
    return st;
}

oa_dump_config *oa_dump_config_clone(const oa_dump_config *cfg)
{
    if (cfg == NULL || cfg->section_json == NULL) {
        return NULL;
    }
    cJSON *dump = cJSON_Parse(cfg->section_json);
    if (dump == NULL) {
        return NULL;
    }
    oa_dump_config *copy = build_config(dump);
    cJSON_Delete(dump);
    if (copy != NULL) {
        memcpy(copy->time_dir, cfg->time_dir, sizeof copy->time_dir);
    }
    return copy;
}

static bool in_list(char *const *v, size_t n, const char *s)
{
    for (size_t i = 0; i < n; ++i) {
        if (strcmp(v[i], s) == 0) {
            return true;
        }
    }
    return false;
}

bool oa_dump_config_selects(const oa_dump_config *cfg, const char *model_name, const char *op_name)
{
    if (cfg == NULL || op_name == NULL) {
        return false;
    }
    if (model_name == NULL) {
        return cfg->op_switch; /* single-operator execution */
    }
    for (size_t i = 0; i < cfg->model_count; ++i) {
        const oa_dump_model *m = &cfg->models[i];
        if (m->model_name != NULL && strcmp(m->model_name, model_name) != 0) {
            continue;
        }
        if (in_list(m->opname_blacklist, m->opname_blacklist_count, op_name)) {
            return false;
        }
        if (!m->has_layers || in_list(m->layers, m->layer_count, op_name)) {
            return true;
        }
    }
    return false;
}

bool oa_dump_step_selected(const char *step, uint64_t k)
{
    if (step == NULL || step[0] == '\0') {
        return true;
    }
    const char *p = step;
    while (*p != '\0') {
        char *end = NULL;
        const unsigned long long a = strtoull(p, &end, 10);
        unsigned long long b = a;
        if (end == p) {
            return false; /* validated already; defensive */
        }
        p = end;
        if (*p == '-') {
            b = strtoull(p + 1, &end, 10);
            p = end;
        }
        if (k >= a && k <= b) {
            return true;
        }
        if (*p == '|') {
            p++;
        } else if (*p != '\0') {
            return false;
        }
    }
    return false;
}

const char *oa_dump_om_name(const char *path, char *buf, size_t cap)
{
    if (cap == 0) {
        return buf;
    }
    buf[0] = '\0';
    if (path == NULL) {
        return buf;
    }
    const char *base = strrchr(path, '/');
    base = base != NULL ? base + 1 : path;
    oa_strlcpy(buf, base, cap);
    char *dot = strrchr(buf, '.');
    if (dot != NULL && dot != buf) {
        *dot = '\0';
    }
    return buf;
}

/* acl.json reading, structural checks and per-key validation (config.h). */
#include "acl_state/config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"

/* Reads fd to the end; read errors (e.g. EISDIR on a directory) end the text where they occur. */
static oa_status read_all(int fd, char **text, size_t *len)
{
    size_t cap = 4096;
    size_t n = 0;
    char *buf = malloc(cap + 1);
    if (buf == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate %zu bytes for the configuration text", cap + 1);
    }
    for (;;) {
        if (n == cap) {
            size_t ncap;
            if (!oa_mul_size(cap, 2, &ncap)) {
                free(buf);
                return OA_FAIL(OA_E_NOMEM, "configuration text is too large");
            }
            char *nb = realloc(buf, ncap + 1);
            if (nb == NULL) {
                free(buf);
                return OA_FAIL(OA_E_NOMEM, "cannot allocate %zu bytes for the configuration text", ncap + 1);
            }
            buf = nb;
            cap = ncap;
        }
        const ssize_t r = read(fd, buf + n, cap - n);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            break;
        }
        n += (size_t)r;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return OA_OK;
}

oa_status oa_acl_cfg_read(const char *path, char **text, size_t *len)
{
    *text = NULL;
    *len = 0;
    char real[PATH_MAX];
    if (realpath(path, real) == NULL) {
        return OA_FAIL(OA_E_INVALID_FILE, "config file [%s] is invalid: %s", path, strerror(errno));
    }
    const int fd = open(real, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return OA_FAIL(OA_E_INVALID_FILE, "cannot open config file [%s]: %s", path, strerror(errno));
    }
    const oa_status st = read_all(fd, text, len);
    close(fd);
    return st;
}

void oa_acl_cfg_depth(const char *text, size_t len, size_t *obj_depth, size_t *arr_depth)
{
    size_t obj = 0;
    size_t arr = 0;
    *obj_depth = 0;
    *arr_depth = 0;
    for (size_t i = 0; i < len && text[i] != '\0'; ++i) {
        switch (text[i]) {
        case '{':
            if (++obj > *obj_depth) {
                *obj_depth = obj;
            }
            break;
        case '}':
            if (obj > 0) {
                --obj;
            }
            break;
        case '[':
            if (++arr > *arr_depth) {
                *arr_depth = arr;
            }
            break;
        case ']':
            if (arr > 0) {
                --arr;
            }
            break;
        default:
            break;
        }
    }
}

oa_status oa_acl_cfg_load(const char *path, cJSON **root)
{
    *root = NULL;
    char real[PATH_MAX];
    if (realpath(path, real) == NULL) {
        return OA_FAIL(OA_E_INVALID_FILE, "config file path [%s] is not a real path: %s", path, strerror(errno));
    }
    struct stat sb;
    if (stat(real, &sb) != 0) {
        return OA_FAIL(OA_E_INVALID_FILE, "cannot get the status of config file [%s]: %s", real, strerror(errno));
    }
    if (!S_ISREG(sb.st_mode)) {
        return OA_FAIL(OA_E_INVALID_FILE, "config file [%s] is not a regular file", real);
    }
    if (sb.st_size > OA_ACL_CONFIG_MAX_BYTES) {
        return OA_FAIL(OA_E_INVALID_FILE, "config file [%s] size %lld exceeds the maximum %d bytes", real,
                       (long long)sb.st_size, OA_ACL_CONFIG_MAX_BYTES);
    }
    char *text = NULL;
    size_t len = 0;
    oa_status st = oa_acl_cfg_read(real, &text, &len);
    if (st != OA_OK) {
        return st;
    }
    if (len == 0) {
        free(text);
        return OA_OK; /* an empty file is an empty configuration */
    }
    size_t obj = 0;
    size_t arr = 0;
    oa_acl_cfg_depth(text, len, &obj, &arr);
    if (obj > OA_ACL_CONFIG_MAX_DEPTH || arr > OA_ACL_CONFIG_MAX_DEPTH) {
        free(text);
        return OA_FAIL(OA_E_PARSE_FILE,
                       "config file [%s]: object depth %zu or array depth %zu exceeds the maximum %d", real, obj,
                       arr, OA_ACL_CONFIG_MAX_DEPTH);
    }
    const char *end = NULL;
    cJSON *js = NULL;
    if (memchr(text, '\0', len) == NULL) {
        js = cJSON_ParseWithOpts(text, &end, 1);
    }
    free(text);
    if (js == NULL) {
        return OA_FAIL(OA_E_PARSE_FILE, "config file [%s] is not valid JSON", real);
    }
    *root = js;
    return OA_OK;
}

static const cJSON *get_key(const cJSON *obj, const char *key)
{
    if (obj == NULL || !cJSON_IsObject(obj)) {
        return NULL;
    }
    return cJSON_GetObjectItemCaseSensitive(obj, key);
}

oa_status oa_acl_cfg_err_msg_mode(const cJSON *root, bool *found, int *mode)
{
    *found = false;
    *mode = 0;
    const cJSON *v = get_key(root, "err_msg_mode");
    if (v == NULL) {
        return OA_OK;
    }
    *found = true;
    if (cJSON_IsString(v) && (strcmp(v->valuestring, "0") == 0 || strcmp(v->valuestring, "1") == 0)) {
        *mode = v->valuestring[0] - '0';
        return OA_OK;
    }
    return OA_FAIL(OA_E_PARAM, "err_msg_mode config is invalid: only the strings \"0\" and \"1\" are supported");
}

oa_status oa_acl_cfg_max_opqueue_num(const cJSON *root, bool *found, uint64_t *value)
{
    *found = false;
    *value = OA_ACL_DEFAULT_MAX_OPQUEUE_NUM;
    const cJSON *v = get_key(root, "max_opqueue_num");
    if (v == NULL) {
        return OA_OK;
    }
    *found = true;
    char *txt = cJSON_PrintUnformatted(v);
    if (txt == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot print max_opqueue_num");
    }
    /* the JSON text of the value with quotes stripped from both ends, parsed as a decimal prefix */
    char *s = txt;
    while (*s == '"') {
        ++s;
    }
    size_t n = strlen(s);
    while (n > 0 && s[n - 1] == '"') {
        s[--n] = '\0';
    }
    errno = 0;
    const long long num = strtoll(s, NULL, 10);
    if (num <= 0) {
        const oa_status st = OA_FAIL(OA_E_PARAM, "max_opqueue_num [%s] is invalid, it should be larger than 0", s);
        cJSON_free(txt);
        return st;
    }
    cJSON_free(txt);
    *value = (uint64_t)num;
    return OA_OK;
}

oa_status oa_acl_cfg_stack_sizes(const cJSON *root, oa_acl_stack_sizes *out)
{
    static const char *const kKeys[3] = {"aicore_stack_size", "simt_stack_size", "simt_divergence_stack_size"};
    memset(out, 0, sizeof(*out));
    const cJSON *ss = get_key(root, "StackSize");
    for (int i = 0; i < 3; ++i) {
        const cJSON *v = get_key(ss, kKeys[i]);
        if (v == NULL) {
            continue;
        }
        if (!cJSON_IsNumber(v)) {
            return OA_FAIL(OA_E_FAILURE, "StackSize.%s must be a number", kKeys[i]);
        }
        const double d = v->valuedouble;
        out->has[i] = true;
        /* a negative integer wraps around like an unsigned conversion; beyond 64 bits the value saturates
         * (no conversion of an out-of-range double: undefined behaviour, a fuzz_json finding) */
        if (d < 0) {
            out->value[i] = d > -9223372036854775808.0 ? (uint64_t)(int64_t)d : (uint64_t)INT64_MIN;
        } else {
            out->value[i] = d < 18446744073709551616.0 ? (uint64_t)d : UINT64_MAX;
        }
    }
    return OA_OK;
}

static bool is_decimal_id(const char *s)
{
    if (strcmp(s, "0") == 0) {
        return true;
    }
    if (s[0] < '1' || s[0] > '9') {
        return false;
    }
    for (const char *p = s + 1; *p != '\0'; ++p) {
        if (!isdigit((unsigned char)*p)) {
            return false;
        }
    }
    return true;
}

oa_status oa_acl_cfg_default_device(const cJSON *root, int32_t *device_id)
{
    *device_id = -1;
    const cJSON *v = get_key(get_key(root, "defaultDevice"), "default_device");
    if (v == NULL) {
        return OA_OK;
    }
    if (!cJSON_IsString(v)) {
        return OA_FAIL(OA_E_FAILURE, "defaultDevice.default_device must be a string");
    }
    if (!is_decimal_id(v->valuestring)) {
        return OA_FAIL(OA_E_FAILURE, "default_device [%s] in the config is neither 0 nor a positive integer",
                       v->valuestring);
    }
    /* narrowed to 32 bits as CANN does: an id that wraps to -1 means "no default device" */
    *device_id = (int32_t)strtol(v->valuestring, NULL, 10);
    return OA_OK;
}

oa_status oa_acl_cfg_fifo_sizes(const cJSON *root, oa_acl_fifo_sizes *out)
{
    static const char *const kKeys[2] = {"simd_printf_fifo_size_per_core", "simt_printf_fifo_size"};
    memset(out, 0, sizeof(*out));
    for (int i = 0; i < 2; ++i) {
        const cJSON *v = get_key(root, kKeys[i]);
        if (v == NULL) {
            continue;
        }
        const double d = cJSON_IsNumber(v) ? v->valuedouble : -1.0;
        if (!(d >= 1.0) || d != floor(d) || d > 9.2e18) {
            return OA_FAIL(OA_E_FAILURE, "%s must be a positive integer", kKeys[i]);
        }
        out->has[i] = true;
        out->value[i] = (uint64_t)d;
    }
    return OA_OK;
}

oa_status oa_acl_cfg_event_mode(const cJSON *root, int *mode)
{
    *mode = -1;
    const cJSON *v = get_key(get_key(root, "acl_graph"), "event_mode");
    if (v == NULL) {
        return OA_OK;
    }
    if (!cJSON_IsString(v) || (strcmp(v->valuestring, "0") != 0 && strcmp(v->valuestring, "1") != 0)) {
        return OA_FAIL(OA_E_PARAM, "acl_graph.event_mode must be \"0\" or \"1\"");
    }
    *mode = v->valuestring[0] - '0';
    return OA_OK;
}

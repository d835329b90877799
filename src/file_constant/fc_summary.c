/*
 * The summary of a model's external weight files, written next to the .om
 * (README.md "Summary file") and shown by atc --mode=1.
 */
#define OA_LOG_MODULE "GE"
#include <cjson/cJSON.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "file_constant/fc_internal.h"

#define SUMMARY_FORMAT "openacl-external-weights"
#define SUMMARY_SUFFIX "_external_weights.json"

oa_status oa_fc_summary_path(const char *om_path, char *out, size_t cap)
{
    if (om_path == NULL || out == NULL || om_path[0] == '\0') {
        return OA_FAIL(OA_E_PARAM, "om path must not be empty");
    }
    size_t len = strlen(om_path);
    const char *base = fc_basename(om_path);
    if (len > 3 && strcmp(om_path + len - 3, ".om") == 0 && (size_t)(om_path + len - base) > 3) {
        len -= 3;
    }
    int r = snprintf(out, cap, "%.*s%s", (int)len, om_path, SUMMARY_SUFFIX);
    if (r < 0 || (size_t)r >= cap) {
        return OA_FAIL(OA_E_PARAM, "om path [%s] is too long", om_path);
    }
    return OA_OK;
}

typedef struct sum_weight {
    const char *location;
    uint64_t offset;
    uint64_t size;
    const char *id;
    const oa_node **nodes;
    size_t nn;
} sum_weight;

static int cmp_weight(const void *a, const void *b)
{
    const sum_weight *x = a, *y = b;
    int c = strcmp(x->location, y->location);
    return c ? c : (x->offset > y->offset) - (x->offset < y->offset);
}

oa_status oa_fc_summary_write(const oa_graph *root, const char *om_path, oa_fc_mode mode)
{
    char spath[PATH_MAX];
    oa_status st = oa_fc_summary_path(om_path, spath, sizeof spath);
    if (st != OA_OK || root == NULL) {
        return st != OA_OK ? st : OA_FAIL(OA_E_PARAM, "graph must not be null");
    }
    char om_dir[PATH_MAX];
    if (!fc_dirname(om_path, om_dir, sizeof om_dir)) {
        return OA_FAIL(OA_E_PARAM, "om path [%s] is too long", om_path);
    }
    oa_graph **gs;
    size_t ng;
    if ((st = fc_all_graphs(root, &gs, &ng)) != OA_OK) {
        return st;
    }
    size_t count = 0;
    for (size_t gi = 0; gi < ng; gi++) {
        for (oa_node *nd = oa_graph_first_node(gs[gi]); nd; nd = nd->next) {
            count += nd->type == OA_OP_FILE_CONSTANT;
        }
    }
    if (count == 0) {
        free(gs);
        if (unlink(spath) == 0) {
            OA_LOGI("removed stale external weight summary [%s]", spath);
        }
        return OA_OK;
    }
    sum_weight *ws = calloc(count, sizeof *ws);
    const oa_node **nodes = calloc(count, sizeof *nodes);
    if (ws == NULL || nodes == NULL) {
        free(ws);
        free(nodes);
        free(gs);
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    size_t nw = 0;
    for (size_t gi = 0; gi < ng; gi++) {
        for (oa_node *nd = oa_graph_first_node(gs[gi]); nd; nd = nd->next) {
            if (nd->type != OA_OP_FILE_CONSTANT) {
                continue;
            }
            oa_fc_ref ref;
            if (oa_fc_get_file_path(nd, NULL, &ref) != OA_OK || ref.path[0] == '\0') {
                oa_error_clear();
                continue; /* file_id models: nothing of ours to describe */
            }
            const char *id = oa_node_attr_str(nd, "_value_sha256", "");
            uint64_t size = ref.length;
            if (size == 0) {
                oa_dtype dt;
                oa_shape shp;
                size_t nb = 0;
                if (fc_node_tensor_type(nd, &dt, &shp) == OA_OK && oa_tensor_nbytes(dt, &shp, &nb)) {
                    size = nb;
                }
            }
            sum_weight key = {.location = ref.path, .offset = ref.offset};
            sum_weight *hit = NULL;
            for (size_t i = 0; i < nw && hit == NULL; i++) {
                if (cmp_weight(&ws[i], &key) == 0) {
                    hit = &ws[i];
                }
            }
            if (hit == NULL) {
                hit = &ws[nw++];
                *hit = key;
                hit->size = size;
                hit->id = id;
                hit->nodes = nodes + (size_t)(hit - ws); /* filled below */
            }
            hit->nn++;
        }
    }
    /* node lists: a second pass into contiguous slices */
    qsort(ws, nw, sizeof *ws, cmp_weight);
    size_t at = 0;
    for (size_t i = 0; i < nw; i++) {
        ws[i].nodes = nodes + at;
        at += ws[i].nn;
        ws[i].nn = 0;
    }
    for (size_t gi = 0; gi < ng; gi++) {
        for (oa_node *nd = oa_graph_first_node(gs[gi]); nd; nd = nd->next) {
            oa_fc_ref ref;
            if (nd->type != OA_OP_FILE_CONSTANT || oa_fc_get_file_path(nd, NULL, &ref) != OA_OK) {
                oa_error_clear();
                continue;
            }
            sum_weight key = {.location = ref.path, .offset = ref.offset};
            sum_weight *hit = bsearch(&key, ws, nw, sizeof *ws, cmp_weight);
            if (hit != NULL) {
                hit->nodes[hit->nn++] = nd;
            }
        }
    }
    fc_buf b = {0};
    fc_buf_printf(&b, "{\n    \"format\": \"%s\",\n    \"version\": 1,\n    \"model\": ", SUMMARY_FORMAT);
    fc_buf_json_str(&b, fc_basename(om_path));
    fc_buf_printf(&b, ",\n    \"mode\": %d,\n    \"weight_dir\": \"weight\",\n    \"files\": [", (int)mode);
    size_t nfiles = 0;
    uint64_t total = 0;
    for (size_t i = 0; i < nw; i++) {
        if (i > 0 && strcmp(ws[i].location, ws[i - 1].location) == 0) {
            continue;
        }
        char disk[PATH_MAX * 2];
        const char *loc = ws[i].location;
        if (strchr(loc, '/') == NULL) {
            snprintf(disk, sizeof disk, "%s/weight/%s", om_dir, loc);
        } else {
            snprintf(disk, sizeof disk, "%s", loc);
        }
        struct stat sb;
        long long fsize = stat(disk, &sb) == 0 ? (long long)sb.st_size : -1;
        if (fsize > 0) {
            total += (uint64_t)fsize;
        }
        fc_buf_puts(&b, nfiles++ ? ",\n        {\"location\": " : "\n        {\"location\": ");
        fc_buf_json_str(&b, loc);
        fc_buf_puts(&b, ", \"path\": ");
        if (strchr(loc, '/') == NULL) {
            char rel[PATH_MAX];
            snprintf(rel, sizeof rel, "weight/%s", loc);
            fc_buf_json_str(&b, rel);
        } else {
            fc_buf_json_str(&b, loc);
        }
        fc_buf_printf(&b, ", \"size\": %lld}", fsize);
    }
    fc_buf_printf(&b, "%s],\n    \"total_size\": %llu,\n    \"weights\": [", nfiles ? "\n    " : "",
                  (unsigned long long)total);
    for (size_t i = 0; i < nw; i++) {
        fc_buf_puts(&b, i ? ",\n        {\"id\": " : "\n        {\"id\": ");
        char idbuf[64];
        if (ws[i].id[0] == '\0') {
            snprintf(idbuf, sizeof idbuf, "%zu", i);
        }
        fc_buf_json_str(&b, ws[i].id[0] ? ws[i].id : idbuf);
        fc_buf_puts(&b, ", \"location\": ");
        fc_buf_json_str(&b, ws[i].location);
        fc_buf_printf(&b, ", \"offset\": %llu, \"size\": %llu, \"nodes\": [", (unsigned long long)ws[i].offset,
                      (unsigned long long)ws[i].size);
        for (size_t k = 0; k < ws[i].nn; k++) {
            if (k) {
                fc_buf_puts(&b, ", ");
            }
            fc_buf_json_str(&b, ws[i].nodes[k]->name);
        }
        fc_buf_puts(&b, "]}");
    }
    fc_buf_printf(&b, "%s]\n}\n", nw ? "\n    " : "");
    free(ws);
    free(nodes);
    free(gs);
    if (b.oom) {
        free(b.p);
        return OA_FAIL(OA_E_NOMEM, "out of memory writing [%s]", spath);
    }
    st = fc_write_file_atomic(spath, b.p, b.len, 0640, NULL);
    free(b.p);
    return st;
}

static const char *human(uint64_t v, char *buf, size_t cap)
{
    if (v >= (1ull << 30)) {
        snprintf(buf, cap, "%.2f GiB", (double)v / (double)(1ull << 30));
    } else if (v >= (1ull << 20)) {
        snprintf(buf, cap, "%.2f MiB", (double)v / (double)(1ull << 20));
    } else if (v >= 1024) {
        snprintf(buf, cap, "%.2f KiB", (double)v / 1024.0);
    } else {
        snprintf(buf, cap, "%llu B", (unsigned long long)v);
    }
    return buf;
}

static uint64_t num(const cJSON *o, const char *k, bool *ok)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!cJSON_IsNumber(v) || v->valuedouble < -1) {
        *ok = false;
        return 0;
    }
    if (v->valuedouble >= 18446744073709551616.0 || v->valuedouble != v->valuedouble) {
        *ok = false; /* beyond uint64_t (or NaN): no conversion */
        return 0;
    }
    return v->valuedouble < 0 ? UINT64_MAX : (uint64_t)v->valuedouble;
}

static const char *str(const cJSON *o, const char *k, bool *ok)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    if (!cJSON_IsString(v)) {
        *ok = false;
        return "";
    }
    return v->valuestring;
}

oa_status oa_fc_summary_print(const char *om_path, FILE *out, bool *found)
{
    if (found) {
        *found = false;
    }
    char spath[PATH_MAX], om_dir[PATH_MAX];
    oa_status st = oa_fc_summary_path(om_path, spath, sizeof spath);
    if (st != OA_OK || out == NULL || !fc_dirname(om_path, om_dir, sizeof om_dir)) {
        return st != OA_OK ? st : OA_FAIL(OA_E_PARAM, "output must not be null");
    }
    FILE *f = fopen(spath, "rb");
    if (f == NULL) {
        return OA_OK; /* no external weights */
    }
    if (found) {
        *found = true;
    }
    fc_buf text = {0};
    char chunk[8192];
    size_t r;
    while ((r = fread(chunk, 1, sizeof chunk, f)) > 0 && text.len < (64u << 20)) {
        fc_buf_put(&text, chunk, r);
    }
    bool rerr = ferror(f) != 0;
    fclose(f);
    if (text.oom || rerr) {
        free(text.p);
        return OA_FAIL(OA_E_GE_FAILURE, "cannot read [%s]", spath);
    }
    cJSON *root = text.p ? cJSON_ParseWithLength(text.p, text.len) : NULL;
    free(text.p);
    bool ok = root != NULL;
    const cJSON *files = ok ? cJSON_GetObjectItemCaseSensitive(root, "files") : NULL;
    const cJSON *weights = ok ? cJSON_GetObjectItemCaseSensitive(root, "weights") : NULL;
    ok = ok && strcmp(str(root, "format", &ok), SUMMARY_FORMAT) == 0 && cJSON_IsArray(files) &&
         cJSON_IsArray(weights);
    uint64_t mode = ok ? num(root, "mode", &ok) : 0;
    if (!ok) {
        cJSON_Delete(root);
        return OA_FAIL(OA_E_GE_FAILURE, "external weight summary [%s] is malformed", spath);
    }
    char h[32];
    int nf = cJSON_GetArraySize(files), nw = cJSON_GetArraySize(weights);
    int w = fprintf(out, "External weights of %s (--external_weight=%llu): %d file(s), %d weight(s)\n",
                    fc_basename(om_path), (unsigned long long)mode, nf, nw);
    w = w < 0 ? w : fprintf(out, "  %-72s %14s  %s\n", "file", "size", "state");
    const cJSON *it;
    cJSON_ArrayForEach(it, files)
    {
        bool fok = true;
        const char *path = str(it, "path", &fok);
        uint64_t size = num(it, "size", &fok);
        char disk[PATH_MAX * 2];
        if (path[0] == '/') {
            snprintf(disk, sizeof disk, "%s", path);
        } else {
            snprintf(disk, sizeof disk, "%s/%s", om_dir, path);
        }
        struct stat sb;
        char state[64];
        if (!fok) {
            snprintf(state, sizeof state, "malformed entry");
        } else if (stat(disk, &sb) != 0) {
            snprintf(state, sizeof state, "missing");
        } else if ((uint64_t)sb.st_size != size) {
            snprintf(state, sizeof state, "size differs (%lld on disk)", (long long)sb.st_size);
        } else {
            snprintf(state, sizeof state, "ok");
        }
        w = w < 0 ? w : fprintf(out, "  %-72s %14s  %s\n", path, size == UINT64_MAX ? "?" : human(size, h, sizeof h),
                                state);
    }
    w = w < 0 ? w : fprintf(out, "  %-66s %-24s %12s %14s  %s\n", "id", "location", "offset", "size", "nodes");
    cJSON_ArrayForEach(it, weights)
    {
        bool wok = true;
        const char *id = str(it, "id", &wok);
        const char *loc = str(it, "location", &wok);
        uint64_t off = num(it, "offset", &wok), size = num(it, "size", &wok);
        const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(it, "nodes");
        w = w < 0 ? w : fprintf(out, "  %-66s %-24s %12llu %14s  ", id, fc_basename(loc), (unsigned long long)off,
                                human(size, h, sizeof h));
        const cJSON *nd;
        int k = 0;
        const cJSON *node_list = cJSON_IsArray(nodes) ? nodes : NULL;
        cJSON_ArrayForEach(nd, node_list)
        {
            if (cJSON_IsString(nd) && w >= 0) {
                w = fprintf(out, "%s%s", k++ ? ", " : "", nd->valuestring);
            }
        }
        w = w < 0 ? w : fprintf(out, "\n");
    }
    cJSON_Delete(root);
    if (w < 0) {
        return OA_FAIL(OA_E_WRITE_FILE, "writing the external weight summary failed");
    }
    return OA_OK;
}

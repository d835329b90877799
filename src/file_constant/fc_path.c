/*
 * GetFilePath (location > file_path > file_id via ge.exec.value_bins), the
 * chunked copy helper and ConvertFileConstToConst.
 */
#define OA_LOG_MODULE "GE"
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "file_constant/fc_internal.h"

/* ---- ge.exec.value_bins ---- */

struct oa_fc_value_bins {
    char **ids;
    char **files;
    size_t n, cap;
};

size_t oa_fc_value_bins_count(const oa_fc_value_bins *m)
{
    return m ? m->n : 0;
}

const char *oa_fc_value_bins_get(const oa_fc_value_bins *m, const char *id)
{
    for (size_t i = 0; m != NULL && id != NULL && i < m->n; i++) {
        if (strcmp(m->ids[i], id) == 0) {
            return m->files[i];
        }
    }
    return NULL;
}

void oa_fc_value_bins_destroy(oa_fc_value_bins *m)
{
    if (m == NULL) {
        return;
    }
    for (size_t i = 0; i < m->n; i++) {
        free(m->ids[i]);
        free(m->files[i]);
    }
    free(m->ids);
    free(m->files);
    free(m);
}

static bool bins_add(oa_fc_value_bins *m, const char *id, const char *file)
{
    if (oa_fc_value_bins_get(m, id) != NULL) {
        return true; /* the first occurrence wins */
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 8;
        char **a = realloc(m->ids, cap * sizeof *a);
        if (a == NULL) {
            return false;
        }
        m->ids = a;
        char **b = realloc(m->files, cap * sizeof *b);
        if (b == NULL) {
            return false;
        }
        m->files = b;
        m->cap = cap;
    }
    m->ids[m->n] = oa_strdup(id);
    m->files[m->n] = oa_strdup(file);
    m->n++;
    return m->ids[m->n - 1] != NULL && m->files[m->n - 1] != NULL;
}

oa_status oa_fc_value_bins_parse(const char *json, oa_fc_value_bins **out)
{
    if (out == NULL) {
        return OA_FAIL(OA_E_PARAM, "value_bins output must not be null");
    }
    *out = NULL;
    oa_fc_value_bins *m = calloc(1, sizeof *m);
    if (m == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    if (json == NULL || json[0] == '\0') {
        *out = m;
        return OA_OK;
    }
    cJSON *root = cJSON_Parse(json);
    if (root == NULL) {
        oa_fc_value_bins_destroy(m);
        return OA_FAIL(OA_E_GE_FAILURE, "option ge.exec.value_bins [%s] is not valid JSON", json);
    }
    const cJSON *group;
    cJSON_ArrayForEach(group, root)
    {
        const cJSON *bin;
        const cJSON *bins = (cJSON_IsArray(group) || cJSON_IsObject(group)) ? group : NULL;
        cJSON_ArrayForEach(bin, bins)
        {
            const cJSON *id = cJSON_GetObjectItemCaseSensitive(bin, "value_bin_id");
            const cJSON *file = cJSON_GetObjectItemCaseSensitive(bin, "value_bin_file");
            if (!cJSON_IsString(id)) {
                continue;
            }
            if (!bins_add(m, id->valuestring, cJSON_IsString(file) ? file->valuestring : "")) {
                cJSON_Delete(root);
                oa_fc_value_bins_destroy(m);
                return OA_FAIL(OA_E_NOMEM, "out of memory");
            }
        }
    }
    cJSON_Delete(root);
    *out = m;
    return OA_OK;
}

/* ---- GetFilePath ---- */

oa_status oa_fc_get_file_path(const oa_node *n, const oa_fc_value_bins *bins, oa_fc_ref *out)
{
    if (n == NULL || out == NULL) {
        return OA_FAIL(OA_E_PARAM, "node and output must not be null");
    }
    memset(out, 0, sizeof *out);
    out->path = "";
    const char *s = NULL;
    if (oa_attrs_get_str(&n->attrs, "location", &s) && s[0] != '\0') {
        int64_t off = 0, len = 0;
        (void)oa_attrs_get_int(&n->attrs, "offset", &off);
        (void)oa_attrs_get_int(&n->attrs, "length", &len);
        if (off < 0 || len < 0) {
            return OA_FAIL(OA_E_GE_FAILURE, "FileConstant [%s] has a negative offset (%lld) or length (%lld)",
                           n->name, (long long)off, (long long)len);
        }
        out->path = s;
        out->offset = (uint64_t)off;
        out->length = (uint64_t)len;
        out->src = OA_FC_PATH_LOCATION;
        return OA_OK;
    }
    if (oa_attrs_get_str(&n->attrs, "file_path", &s) && s[0] != '\0') {
        out->path = s;
        out->src = OA_FC_PATH_FILE_PATH;
        return OA_OK;
    }
    if (!oa_attrs_get_str(&n->attrs, "file_id", &s)) {
        return OA_FAIL(OA_E_GE_FAILURE, "FileConstant [%s] has none of the attrs location, file_path, file_id",
                       n->name);
    }
    if (s[0] == '\0') {
        return OA_FAIL(OA_E_GE_FAILURE, "FileConstant [%s] has an empty location, file_path and file_id", n->name);
    }
    const char *f = oa_fc_value_bins_get(bins, s);
    if (f == NULL) {
        OA_LOGW("file_id [%s] of FileConstant [%s] is not in option ge.exec.value_bins", s, n->name);
        out->src = OA_FC_PATH_NONE;
        return OA_OK;
    }
    if (f[0] == '\0') {
        return OA_FAIL(OA_E_GE_FAILURE, "file_id [%s] of FileConstant [%s] maps to an empty path", s, n->name);
    }
    out->path = f;
    out->src = OA_FC_PATH_FILE_ID;
    return OA_OK;
}

/* ---- chunked copy ---- */

oa_status oa_fc_copy_from_file(void *dst, size_t dst_cap, const char *path, uint64_t offset, size_t size)
{
    if ((dst == NULL && size > 0) || path == NULL) {
        return OA_FAIL(OA_E_GE_PARAM, "copy destination and path must not be null");
    }
    if (size > dst_cap) {
        return OA_FAIL(OA_E_GE_PARAM, "weight of %zu bytes from [%s] does not fit the %zu-byte buffer", size, path,
                       dst_cap);
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return OA_FAIL(OA_E_GE_FAILURE, "open weight file [%s] failed: %s", path, strerror(errno));
    }
    size_t done = 0;
    oa_status st = OA_OK;
    while (done < size) {
        size_t chunk = OA_MIN((size_t)OA_FC_COPY_CHUNK, size - done);
        if (!fc_pread_all(fd, (char *)dst + done, chunk, offset + done)) {
            st = OA_FAIL(OA_E_GE_FAILURE, "read of %zu bytes at offset %llu of [%s] failed: %s", chunk,
                         (unsigned long long)(offset + done), path, errno ? strerror(errno) : "end of file");
            break;
        }
        done += chunk;
    }
    close(fd);
    return st;
}

/* ---- ConvertFileConstToConst ---- */

oa_status fc_node_tensor_type(const oa_node *n, oa_dtype *dt, oa_shape *shape)
{
    const oa_tensor_desc *d = &n->outputs[0].desc;
    if (!oa_attrs_get_dtype(&n->attrs, "dtype", dt)) {
        *dt = d->dtype;
    }
    const int64_t *v;
    size_t k;
    if (oa_attrs_get_list_int(&n->attrs, "shape", &v, &k) ||
        oa_attrs_get_list_int(&n->attrs, "original_shape", &v, &k)) {
        if (k > OA_MAX_RANK) {
            return OA_FAIL(OA_E_GE_FAILURE, "FileConstant [%s] has rank %zu, more than %d", n->name, k, OA_MAX_RANK);
        }
        *shape = oa_shape_make((int32_t)k, v);
    } else {
        *shape = d->shape;
    }
    return OA_OK;
}

typedef struct map_cache {
    char **paths;
    oa_blob **blobs;
    size_t n, cap;
} map_cache;

static oa_status cache_map(map_cache *c, const char *path, oa_blob **out)
{
    for (size_t i = 0; i < c->n; i++) {
        if (strcmp(c->paths[i], path) == 0) {
            *out = c->blobs[i];
            return OA_OK;
        }
    }
    if (c->n == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 8;
        char **p = realloc(c->paths, cap * sizeof *p);
        if (p == NULL) {
            return OA_FAIL(OA_E_NOMEM, "out of memory");
        }
        c->paths = p;
        oa_blob **b = realloc(c->blobs, cap * sizeof *b);
        if (b == NULL) {
            return OA_FAIL(OA_E_NOMEM, "out of memory");
        }
        c->blobs = b;
        c->cap = cap;
    }
    oa_blob *b = NULL;
    oa_status st = oa_blob_map_file(path, &b);
    if (st != OA_OK) {
        return OA_FAIL(OA_E_GE_FAILURE, "weight file [%s] cannot be mapped", path);
    }
    c->paths[c->n] = oa_strdup(path);
    if (c->paths[c->n] == NULL) {
        oa_blob_release(b);
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    c->blobs[c->n++] = b;
    *out = b;
    return OA_OK;
}

static void cache_free(map_cache *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free(c->paths[i]);
        oa_blob_release(c->blobs[i]);
    }
    free(c->paths);
    free(c->blobs);
}

static oa_status to_const(oa_node *n, const char *path, const oa_fc_ref *ref, bool map, map_cache *cache)
{
    oa_dtype dt;
    oa_shape shape;
    oa_status st = fc_node_tensor_type(n, &dt, &shape);
    if (st != OA_OK) {
        return st;
    }
    size_t nbytes;
    if (!oa_tensor_nbytes(dt, &shape, &nbytes)) {
        char sb[128];
        if (oa_dtype_bits(dt) == 0) {
            OA_LOGW("FileConstant [%s] of %s stays a FileConstant (no fixed element size)", n->name,
                    oa_dtype_name(dt));
            return OA_OK;
        }
        return OA_FAIL(OA_E_GE_FAILURE, "FileConstant [%s] has no static byte size (%s %s)", n->name,
                       oa_dtype_name(dt), oa_shape_str(&shape, sb, sizeof sb));
    }
    uint64_t length = ref->length ? ref->length : nbytes;
    uint64_t end;
    if (__builtin_add_overflow(ref->offset, length, &end)) {
        return OA_FAIL(OA_E_GE_FAILURE, "FileConstant [%s]: offset %llu + length %llu overflows", n->name,
                       (unsigned long long)ref->offset, (unsigned long long)length);
    }
    if (length != nbytes) {
        return OA_FAIL(OA_E_GE_FAILURE, "FileConstant [%s]: length %llu differs from its tensor size %zu", n->name,
                       (unsigned long long)length, nbytes);
    }
    struct stat sb;
    if (stat(path, &sb) != 0 || !S_ISREG(sb.st_mode)) {
        return OA_FAIL(OA_E_GE_FAILURE, "weight file [%s] of FileConstant [%s] is not a readable regular file",
                       path, n->name);
    }
    if ((uint64_t)sb.st_size < end) {
        return OA_FAIL(OA_E_GE_FAILURE, "weight file [%s] has %lld bytes; FileConstant [%s] needs [%llu, %llu)",
                       path, (long long)sb.st_size, n->name, (unsigned long long)ref->offset,
                       (unsigned long long)end);
    }
    oa_graph *g = n->graph;
    oa_tensor *t = NULL;
    if (map && nbytes > 0) {
        oa_blob *b = NULL;
        if ((st = cache_map(cache, path, &b)) != OA_OK) {
            return st;
        }
        if (oa_blob_size(b) < end) {
            return OA_FAIL(OA_E_GE_FAILURE, "weight file [%s] shrank while loading", path);
        }
        st = oa_graph_make_tensor_borrowed(g, dt, &shape, b, (size_t)ref->offset, nbytes, &t);
    } else {
        st = oa_graph_make_tensor(g, dt, &shape, NULL, nbytes, &t);
        if (st == OA_OK && nbytes > 0) {
            st = oa_fc_copy_from_file((void *)(uintptr_t)t->data, nbytes, path, ref->offset, nbytes);
        }
    }
    if (st != OA_OK) {
        return st;
    }
    oa_node *c;
    static const char *const drop[] = {"offset", "length", "location", NULL};
    if ((st = fc_replace_node(n, OA_OP_CONST, n->name, drop, &c)) != OA_OK) {
        return st;
    }
    return oa_node_set_tensor(c, "value", t);
}

oa_status oa_fc_file_consts_to_consts(oa_graph *root, const char *base_dir, const char *value_bins, bool map)
{
    if (root == NULL) {
        return OA_FAIL(OA_E_PARAM, "graph must not be null");
    }
    oa_fc_value_bins *bins;
    oa_status st = oa_fc_value_bins_parse(value_bins, &bins);
    if (st != OA_OK) {
        return st;
    }
    oa_graph **gs;
    size_t ng;
    if ((st = fc_all_graphs(root, &gs, &ng)) != OA_OK) {
        oa_fc_value_bins_destroy(bins);
        return st;
    }
    map_cache cache = {0};
    for (size_t gi = 0; gi < ng && st == OA_OK; gi++) {
        oa_node *next;
        for (oa_node *nd = oa_graph_first_node(gs[gi]); nd && st == OA_OK; nd = next) {
            next = nd->next;
            if (nd->type != OA_OP_FILE_CONSTANT) {
                continue;
            }
            const char *loc = NULL, *fp = NULL;
            bool any = (oa_attrs_get_str(&nd->attrs, "location", &loc) && loc[0]) ||
                       (oa_attrs_get_str(&nd->attrs, "file_path", &fp) && fp[0]);
            if (!any) {
                continue; /* GE skips nodes without a location or file_path silently */
            }
            oa_fc_ref ref;
            if ((st = oa_fc_get_file_path(nd, bins, &ref)) != OA_OK) {
                break;
            }
            char full[PATH_MAX];
            const char *path = ref.path;
            if (path[0] != '/' && base_dir != NULL && base_dir[0] != '\0') {
                if (!fc_join(full, sizeof full, base_dir, path)) {
                    st = OA_FAIL(OA_E_GE_FAILURE, "weight path [%s/%s] is too long", base_dir, path);
                    break;
                }
                path = full;
            }
            st = to_const(nd, path, &ref, map, &cache);
        }
    }
    cache_free(&cache);
    free(gs);
    oa_fc_value_bins_destroy(bins);
    return st;
}

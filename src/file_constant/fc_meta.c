/*
 * meta.json of a weight directory: {"hash_to_weight_file": {hash: path},
 * "hash_to_weight_offset": {hash: offset}}, read-modify-written under an
 * exclusive flock and replaced atomically.
 */
#define OA_LOG_MODULE "GE"
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "file_constant/fc_internal.h"

/* ---- growing buffer ---- */

void fc_buf_put(fc_buf *b, const char *s, size_t n)
{
    if (b->oom) {
        return;
    }
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1) {
            cap *= 2;
        }
        char *p = realloc(b->p, cap);
        if (p == NULL) {
            b->oom = true;
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = '\0';
}

void fc_buf_puts(fc_buf *b, const char *s)
{
    fc_buf_put(b, s, strlen(s));
}

void fc_buf_printf(fc_buf *b, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = true;
        return;
    }
    if ((size_t)n < sizeof tmp) {
        fc_buf_put(b, tmp, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (big == NULL) {
        b->oom = true;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    fc_buf_put(b, big, (size_t)n);
    free(big);
}

void fc_buf_json_str(fc_buf *b, const char *s)
{
    fc_buf_put(b, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"': fc_buf_put(b, "\\\"", 2); break;
        case '\\': fc_buf_put(b, "\\\\", 2); break;
        case '\b': fc_buf_put(b, "\\b", 2); break;
        case '\f': fc_buf_put(b, "\\f", 2); break;
        case '\n': fc_buf_put(b, "\\n", 2); break;
        case '\r': fc_buf_put(b, "\\r", 2); break;
        case '\t': fc_buf_put(b, "\\t", 2); break;
        default:
            if (*p < 0x20) {
                fc_buf_printf(b, "\\u%04x", *p);
            } else {
                fc_buf_put(b, (const char *)p, 1);
            }
        }
    }
    fc_buf_put(b, "\"", 1);
}

/* ---- the meta object ---- */

void fc_meta_init(fc_meta *m)
{
    memset(m, 0, sizeof *m);
}

void fc_meta_deinit(fc_meta *m)
{
    if (m == NULL) {
        return;
    }
    for (size_t i = 0; i < m->n; i++) {
        free(m->v[i].hash);
        free(m->v[i].file);
    }
    free(m->v);
    memset(m, 0, sizeof *m);
}

fc_meta_entry *fc_meta_find(const fc_meta *m, const char *hash)
{
    for (size_t i = 0; i < m->n; i++) {
        if (strcmp(m->v[i].hash, hash) == 0) {
            return &m->v[i];
        }
    }
    return NULL;
}

static fc_meta_entry *meta_get_or_add(fc_meta *m, const char *hash)
{
    fc_meta_entry *e = fc_meta_find(m, hash);
    if (e != NULL) {
        return e;
    }
    if (m->n == m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 16;
        fc_meta_entry *v = realloc(m->v, cap * sizeof *v);
        if (v == NULL) {
            return NULL;
        }
        m->v = v;
        m->cap = cap;
    }
    char *h = oa_strdup(hash);
    if (h == NULL) {
        return NULL;
    }
    e = &m->v[m->n++];
    memset(e, 0, sizeof *e);
    e->hash = h;
    return e;
}

oa_status fc_meta_set(fc_meta *m, const char *hash, const char *file, bool has_offset, uint64_t offset)
{
    fc_meta_entry *e = meta_get_or_add(m, hash);
    if (e == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory recording weight %s", hash);
    }
    if (file != NULL) {
        char *f = oa_strdup(file);
        if (f == NULL) {
            return OA_FAIL(OA_E_NOMEM, "out of memory recording weight %s", hash);
        }
        free(e->file);
        e->file = f;
    }
    if (has_offset) {
        e->has_offset = true;
        e->offset = offset;
    }
    return OA_OK;
}

oa_status fc_meta_parse(fc_meta *m, const char *text, size_t len, const char *path)
{
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (root == NULL) {
        return OA_FAIL(OA_E_GE_FAILURE, "meta file [%s] is not valid JSON; remove it or choose another weight "
                                        "directory", path);
    }
    oa_status st = OA_OK;
    if (!cJSON_IsObject(root)) {
        st = OA_FAIL(OA_E_GE_FAILURE, "meta file [%s] is not a JSON object", path);
        goto out;
    }
    const cJSON *files = cJSON_GetObjectItemCaseSensitive(root, "hash_to_weight_file");
    const cJSON *offs = cJSON_GetObjectItemCaseSensitive(root, "hash_to_weight_offset");
    if ((files && !cJSON_IsObject(files) && !cJSON_IsNull(files)) ||
        (offs && !cJSON_IsObject(offs) && !cJSON_IsNull(offs))) {
        st = OA_FAIL(OA_E_GE_FAILURE, "meta file [%s]: hash_to_weight_file and hash_to_weight_offset must be "
                                      "objects", path);
        goto out;
    }
    const cJSON *it;
    const cJSON *files_obj = cJSON_IsObject(files) ? files : NULL;
    const cJSON *offs_obj = cJSON_IsObject(offs) ? offs : NULL;
    cJSON_ArrayForEach(it, files_obj)
    {
        if (!cJSON_IsString(it) || it->string == NULL || it->string[0] == '\0' || it->valuestring[0] == '\0') {
            st = OA_FAIL(OA_E_GE_FAILURE, "meta file [%s]: entry [%s] of hash_to_weight_file is not a non-empty "
                                          "string", path, it->string ? it->string : "");
            goto out;
        }
        if ((st = fc_meta_set(m, it->string, it->valuestring, false, 0)) != OA_OK) {
            goto out;
        }
    }
    cJSON_ArrayForEach(it, offs_obj)
    {
        double d = cJSON_IsNumber(it) ? it->valuedouble : -1.0;
        if (it->string == NULL || !(d >= 0.0) || d > 9007199254740992.0 || floor(d) != d) {
            st = OA_FAIL(OA_E_GE_FAILURE, "meta file [%s]: offset of [%s] is not a non-negative integer", path,
                         it->string ? it->string : "");
            goto out;
        }
        if ((st = fc_meta_set(m, it->string, NULL, true, (uint64_t)d)) != OA_OK) {
            goto out;
        }
    }
out:
    cJSON_Delete(root);
    return st;
}

static int cmp_entry(const void *a, const void *b)
{
    const fc_meta_entry *const *x = a;
    const fc_meta_entry *const *y = b;
    return strcmp((*x)->hash, (*y)->hash);
}

char *fc_meta_render(const fc_meta *m, size_t *len)
{
    const fc_meta_entry **sorted = malloc((m->n ? m->n : 1) * sizeof *sorted);
    if (sorted == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < m->n; i++) {
        sorted[i] = &m->v[i];
    }
    qsort(sorted, m->n, sizeof *sorted, cmp_entry);
    fc_buf b = {0};
    size_t nf = 0, no = 0;
    for (size_t i = 0; i < m->n; i++) {
        nf += sorted[i]->file != NULL;
        no += sorted[i]->has_offset;
    }
    /* nlohmann::json::dump(4): sorted keys, 4-space indent, "{}" when empty */
    fc_buf_puts(&b, "{\n    \"hash_to_weight_file\": ");
    if (nf == 0) {
        fc_buf_puts(&b, "{}");
    } else {
        fc_buf_puts(&b, "{");
        size_t k = 0;
        for (size_t i = 0; i < m->n; i++) {
            if (sorted[i]->file == NULL) {
                continue;
            }
            fc_buf_puts(&b, k++ ? ",\n        " : "\n        ");
            fc_buf_json_str(&b, sorted[i]->hash);
            fc_buf_puts(&b, ": ");
            fc_buf_json_str(&b, sorted[i]->file);
        }
        fc_buf_puts(&b, "\n    }");
    }
    fc_buf_puts(&b, ",\n    \"hash_to_weight_offset\": ");
    if (no == 0) {
        fc_buf_puts(&b, "{}");
    } else {
        fc_buf_puts(&b, "{");
        size_t k = 0;
        for (size_t i = 0; i < m->n; i++) {
            if (!sorted[i]->has_offset) {
                continue;
            }
            fc_buf_puts(&b, k++ ? ",\n        " : "\n        ");
            fc_buf_json_str(&b, sorted[i]->hash);
            fc_buf_printf(&b, ": %llu", (unsigned long long)sorted[i]->offset);
        }
        fc_buf_puts(&b, "\n    }");
    }
    fc_buf_puts(&b, "\n}");
    free(sorted);
    if (b.oom) {
        free(b.p);
        return NULL;
    }
    *len = b.len;
    return b.p;
}

/* ---- locking ---- */

oa_status fc_meta_lock_open(fc_meta_lock *l, const char *dir)
{
    memset(l, 0, sizeof *l);
    l->fd = -1;
    fc_meta_init(&l->meta);
    if (!fc_join(l->path, sizeof l->path, dir, OA_FC_META_NAME)) {
        return OA_FAIL(OA_E_GE_FAILURE, "weight directory [%s] is too long", dir);
    }
    for (int attempt = 0;; attempt++) {
        int fd = open(l->path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
        if (fd < 0) {
            return OA_FAIL(OA_E_GE_FAILURE, "open file [%s] failed: %s", l->path, strerror(errno));
        }
        int r;
        do {
            r = flock(fd, LOCK_EX);
        } while (r != 0 && errno == EINTR);
        if (r != 0) {
            int err = errno;
            close(fd);
            return OA_FAIL(OA_E_GE_FAILURE, "lock file [%s] failed: %s", l->path, strerror(err));
        }
        /* Another writer may have replaced meta.json (rename) while we waited:
         * our lock is then on the old inode. Start again on the current file. */
        struct stat a, b;
        if (fstat(fd, &a) == 0 && stat(l->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino) {
            l->fd = fd;
            break;
        }
        flock(fd, LOCK_UN);
        close(fd);
        if (attempt > 1000) {
            return OA_FAIL(OA_E_GE_FAILURE, "meta file [%s] keeps being replaced", l->path);
        }
    }
    fc_hook("meta_locked", l->path);
    char dir_copy[4096];
    if (fc_dirname(l->path, dir_copy, sizeof dir_copy)) {
        fc_remove_stale_temps(dir_copy);
    }
    struct stat st;
    if (fstat(l->fd, &st) != 0) {
        return OA_FAIL(OA_E_GE_FAILURE, "stat [%s] failed: %s", l->path, strerror(errno));
    }
    if (st.st_size == 0) {
        return OA_OK; /* new (or created by a writer killed before its first commit) */
    }
    if (st.st_size > (off_t)(256u << 20)) {
        return OA_FAIL(OA_E_GE_FAILURE, "meta file [%s] is %lld bytes, larger than any real one", l->path,
                       (long long)st.st_size);
    }
    size_t len = (size_t)st.st_size;
    char *text = malloc(len + 1);
    if (text == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory reading [%s]", l->path);
    }
    if (!fc_pread_all(l->fd, text, len, 0)) {
        free(text);
        return OA_FAIL(OA_E_GE_FAILURE, "read file [%s] failed", l->path);
    }
    text[len] = '\0';
    oa_status s = fc_meta_parse(&l->meta, text, len, l->path);
    free(text);
    return s;
}

oa_status fc_meta_lock_commit(fc_meta_lock *l)
{
    size_t len = 0;
    char *text = fc_meta_render(&l->meta, &len);
    if (text == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory writing [%s]", l->path);
    }
    oa_status st = fc_write_file_atomic(l->path, text, len, 0600, "meta_write");
    free(text);
    return st;
}

void fc_meta_lock_close(fc_meta_lock *l)
{
    if (l == NULL) {
        return;
    }
    if (l->fd >= 0) {
        flock(l->fd, LOCK_UN);
        close(l->fd);
    }
    l->fd = -1;
    fc_meta_deinit(&l->meta);
}

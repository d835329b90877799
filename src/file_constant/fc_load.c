/*
 * Load time: PreProcessFileConstants without copies. Every FileConstant is
 * resolved to a file (or the application's memory), checked, and pointed at
 * a read-only shared mapping of that file. Mappings are kept in a
 * per-device table so that models using the same file share one mapping.
 */
#define OA_LOG_MODULE "GE"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/pages.h"
#include "base/util.h"
#include "file_constant/fc_internal.h"

/* ======================================================================
 * The weight manager: one mapping per (device, file), reference counted
 * ====================================================================== */

typedef struct fc_mapping {
    struct fc_mapping *next;
    int32_t device;
    dev_t dev;
    ino_t ino;
    off_t size;
    struct timespec mtime;
    char *path;
    oa_blob *blob; /* one reference held by the table entry */
    size_t users;  /* sets using it */
} fc_mapping;

static pthread_mutex_t g_maps_lock = PTHREAD_MUTEX_INITIALIZER;
static fc_mapping *g_maps;

static void unmap_release(void *ctx, const void *data, size_t size)
{
    (void)ctx;
    if (data != NULL && size > 0) {
        munmap((void *)(uintptr_t)data, size);
    }
}

static const char g_empty[64] __attribute__((aligned(64)));

/* Finds or creates the mapping of the open file fd (stat st) for device. */
static oa_status mapping_acquire(int32_t device, int fd, const struct stat *st, const char *path, fc_mapping **out)
{
    pthread_mutex_lock(&g_maps_lock);
    for (fc_mapping *m = g_maps; m; m = m->next) {
        if (m->device == device && m->dev == st->st_dev && m->ino == st->st_ino && m->size == st->st_size &&
            m->mtime.tv_sec == st->st_mtim.tv_sec && m->mtime.tv_nsec == st->st_mtim.tv_nsec) {
            m->users++;
            pthread_mutex_unlock(&g_maps_lock);
            *out = m;
            return OA_OK;
        }
    }
    oa_status s = OA_OK;
    fc_mapping *m = calloc(1, sizeof *m);
    void *p = NULL;
    size_t size = (size_t)st->st_size;
    if (m == NULL || (m->path = oa_strdup(path)) == NULL) {
        s = OA_FAIL(OA_E_NOMEM, "out of memory mapping [%s]", path);
        goto fail;
    }
    if (size > 0) {
        p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED) {
            p = NULL;
            s = OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "mapping weight file [%s] (%zu bytes) failed: %s", path, size,
                        strerror(errno));
            goto fail;
        }
    }
    m->blob = oa_blob_create(size ? p : g_empty, size, size ? unmap_release : NULL, NULL);
    if (m->blob == NULL) {
        s = OA_E_NOMEM;
        goto fail;
    }
    m->device = device;
    m->dev = st->st_dev;
    m->ino = st->st_ino;
    m->size = st->st_size;
    m->mtime = st->st_mtim;
    m->users = 1;
    m->next = g_maps;
    g_maps = m;
    pthread_mutex_unlock(&g_maps_lock);
    OA_LOGI("mapped weight file [%s] (%zu bytes) for device %d", path, size, (int)device);
    *out = m;
    return OA_OK;
fail:
    pthread_mutex_unlock(&g_maps_lock);
    if (p != NULL) {
        munmap(p, size);
    }
    if (m != NULL) {
        free(m->path);
        free(m);
    }
    return s;
}

static void mapping_release(fc_mapping *m)
{
    if (m == NULL) {
        return;
    }
    pthread_mutex_lock(&g_maps_lock);
    bool last = --m->users == 0;
    if (last) {
        for (fc_mapping **pp = &g_maps; *pp; pp = &(*pp)->next) {
            if (*pp == m) {
                *pp = m->next;
                break;
            }
        }
    }
    pthread_mutex_unlock(&g_maps_lock);
    if (last) {
        OA_LOGI("released weight file [%s] of device %d", m->path, (int)m->device);
        oa_blob_release(m->blob); /* unmapped now, or when the last graph borrowing it goes */
        free(m->path);
        free(m);
    }
}

size_t oa_fc_mapped_files(int32_t device_id)
{
    size_t n = 0;
    pthread_mutex_lock(&g_maps_lock);
    for (fc_mapping *m = g_maps; m; m = m->next) {
        n += device_id < 0 || m->device == device_id;
    }
    pthread_mutex_unlock(&g_maps_lock);
    return n;
}

/* ======================================================================
 * Sets
 * ====================================================================== */

struct oa_fc_set {
    oa_fc_weight *w;
    size_t n;
    bool combined;
    oa_prefault *prefault; /* of the mapped ranges (README "Prefault") */
    char weight_dir[PATH_MAX];
    fc_mapping **maps;
    size_t nmaps;
    oa_blob **blobs; /* user-memory wrappers and private copies, one reference each */
    size_t nblobs;
};

size_t oa_fc_set_count(const oa_fc_set *s)
{
    return s ? s->n : 0;
}

const oa_fc_weight *oa_fc_set_at(const oa_fc_set *s, size_t i)
{
    return (s && i < s->n) ? &s->w[i] : NULL;
}

const oa_fc_weight *oa_fc_set_find(const oa_fc_set *s, const oa_node *n)
{
    for (size_t i = 0; s != NULL && i < s->n; i++) {
        if (s->w[i].node == n) {
            return &s->w[i];
        }
    }
    return NULL;
}

bool oa_fc_set_is_combined(const oa_fc_set *s)
{
    return s ? s->combined : false;
}

static bool in_blob(const oa_blob *b, const void *p, size_t n)
{
    const char *d = oa_blob_data(b), *q = p;
    size_t size = oa_blob_size(b);
    return d != NULL && q >= d && (size_t)(q - d) <= size && n <= size - (size_t)(q - d);
}

bool oa_fc_set_holds(const oa_fc_set *s, const void *p, size_t n)
{
    if (s == NULL || p == NULL) {
        return false;
    }
    for (size_t i = 0; i < s->nmaps; i++) {
        if (in_blob(s->maps[i]->blob, p, n)) {
            return true;
        }
    }
    for (size_t i = 0; i < s->nblobs; i++) {
        if (in_blob(s->blobs[i], p, n)) {
            return true;
        }
    }
    return false;
}

const char *oa_fc_set_weight_dir(const oa_fc_set *s)
{
    return s ? s->weight_dir : "";
}

void oa_fc_set_destroy(oa_fc_set *s)
{
    if (s == NULL) {
        return;
    }
    oa_prefault_stop(s->prefault);
    for (size_t i = 0; i < s->n; i++) {
        free((char *)(uintptr_t)s->w[i].path);
    }
    for (size_t i = 0; i < s->nmaps; i++) {
        mapping_release(s->maps[i]);
    }
    for (size_t i = 0; i < s->nblobs; i++) {
        oa_blob_release(s->blobs[i]);
    }
    free(s->w);
    free(s->maps);
    free(s->blobs);
    free(s);
}

static oa_status set_add_blob(oa_fc_set *s, oa_blob *b)
{
    oa_blob **v = realloc(s->blobs, (s->nblobs + 1) * sizeof *v);
    if (v == NULL) {
        oa_blob_release(b);
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    s->blobs = v;
    s->blobs[s->nblobs++] = b;
    return OA_OK;
}

/* The set's reference to mapping m (acquired once per set). */
static oa_status set_add_map(oa_fc_set *s, fc_mapping *m, bool *dup)
{
    for (size_t i = 0; i < s->nmaps; i++) {
        if (s->maps[i] == m) {
            *dup = true;
            return OA_OK;
        }
    }
    *dup = false;
    fc_mapping **v = realloc(s->maps, (s->nmaps + 1) * sizeof *v);
    if (v == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    s->maps = v;
    s->maps[s->nmaps++] = m;
    return OA_OK;
}

void oa_fc_load_opts_init(oa_fc_load_opts *o, const char *om_path, const char *weight_dir,
                          const oa_external_weight *ext_weights, size_t n_ext_weights, int32_t device_id,
                          oa_fc_runtime runtime)
{
    memset(o, 0, sizeof *o);
    o->om_path = om_path;
    o->weight_path = weight_dir;
    o->user_mems = ext_weights;
    o->n_user_mems = ext_weights != NULL ? n_ext_weights : 0;
    o->device_id = device_id;
    o->runtime = runtime;
    o->prefault = oa_fc_prefault_from_env(OA_FC_PREFAULT_ASYNC);
}

/* ======================================================================
 * Resolution
 * ====================================================================== */

/* True when name (a location) has a "." or ".." component or is empty. */
static bool has_dot_component(const char *p, bool dotdot_only)
{
    const char *s = p;
    for (;;) {
        const char *e = strchr(s, '/');
        size_t len = e ? (size_t)(e - s) : strlen(s);
        if ((len == 2 && s[0] == '.' && s[1] == '.') || (!dotdot_only && len == 1 && s[0] == '.')) {
            return true;
        }
        if (e == NULL) {
            return false;
        }
        s = e + 1;
    }
}

typedef struct resolve_ctx {
    const oa_fc_load_opts *o;
    const oa_fc_value_bins *bins;
    const char *dir;      /* weight dir with trailing '/', "" when none */
    char dir_real[PATH_MAX]; /* realpath of dir (empty when dir does not exist); without a weight dir, the
                              * realpath of the current directory, which relative locations must stay in */
} resolve_ctx;

static const oa_external_weight *find_user_mem(const oa_fc_load_opts *o, const char *file_name);

/* Resolved path of node n into *path (malloc'd); *contained: must stay under
 * the weight directory. */
static oa_status resolve_path(const resolve_ctx *c, const oa_node *n, oa_fc_ref *ref, char **path, bool *contained)
{
    oa_status st = oa_fc_get_file_path(n, c->bins, ref);
    if (st != OA_OK) {
        return st;
    }
    bool v2 = c->o->runtime == OA_FC_RT_V2;
    *contained = false;
    const char *p = ref->path;
    char buf[PATH_MAX];
    /* V1 reads file_path verbatim in CANN; here it is confined like a location (docs/external_weights.md) */
    if (c->dir[0] != '\0' && (ref->src == OA_FC_PATH_LOCATION || ref->src == OA_FC_PATH_FILE_PATH || v2)) {
        if (v2 && ref->src != OA_FC_PATH_LOCATION) {
            /* RT2's FileConstantKernel: a weight dir but no location */
            return OA_FAIL(OA_E_GE_FAILURE, "FileConstant [%s] has no location while the weight directory [%s] is "
                                            "set", n->name, c->dir);
        }
        const char *name = p;
        if (has_dot_component(p, true)) {
            return OA_FAIL(OA_E_GE_FAILURE, "location [%s] of FileConstant [%s] contains a '..' component; a "
                                            "location must name a file of the weight directory", p, n->name);
        }
        if (v2) {
            if (strchr(p, '/') != NULL) {
                return OA_FAIL(OA_E_GE_FAILURE, "location [%s] of FileConstant [%s] contains '/'; a location must "
                                                "be a file name in the weight directory [%s]", p, n->name, c->dir);
            }
        } else {
            name = fc_basename(p); /* RefreshRelativePath + SetExternalPath */
        }
        if (name[0] == '\0' || strcmp(name, ".") == 0) {
            return OA_FAIL(OA_E_GE_FAILURE, "location [%s] of FileConstant [%s] names no file", p, n->name);
        }
        if (!fc_join(buf, sizeof buf, c->dir, name)) {
            return OA_FAIL(OA_E_GE_FAILURE, "weight path [%s%s] is too long", c->dir, name);
        }
        p = buf;
        *contained = true;
    } else if (ref->src == OA_FC_PATH_NONE) {
        return OA_FAIL(OA_E_GE_FAILURE, "FileConstant [%s]: its file_id is not in ge.exec.value_bins, so it has "
                                        "no weight file", n->name);
    } else if (ref->src != OA_FC_PATH_FILE_ID) {
        /*
         * Hardening over CANN (docs/external_weights.md): without a weight directory (a memory load without
         * ACL_MDL_WEIGHT_PATH_PTR) the model names the file alone, so it may only name one under the current
         * directory; an absolute or escaping location needs the application's weight directory, or the
         * application's memory for that file (aclmdlSetExternalWeightAddress, matched by file name).
         */
        if ((p[0] == '/' || has_dot_component(p, true)) && find_user_mem(c->o, fc_basename(p)) == NULL) {
            return OA_FAIL(OA_E_GE_FAILURE, "location [%s] of FileConstant [%s] is absolute or leaves the current "
                                            "directory, and the model was loaded from memory without a weight "
                                            "directory: pass the directory with ACL_MDL_WEIGHT_PATH_PTR "
                                            "(aclmdlLoadWithConfig)", p, n->name);
        }
        *contained = p[0] != '/';
    }
    *path = oa_strdup(p);
    return *path ? OA_OK : OA_FAIL(OA_E_NOMEM, "out of memory");
}

/* Opens path for reading; when contained, its real path must stay under
 * the weight directory (no symlink leaving it). */
static oa_status open_weight(const resolve_ctx *c, const oa_node *n, const char *path, bool contained, int *fd_out,
                             struct stat *st, char *real)
{
    if (realpath(path, real) == NULL) {
        return OA_FAIL(OA_E_GE_FAILURE, "weight file [%s] of FileConstant [%s] does not exist: %s", path, n->name,
                       strerror(errno));
    }
    if (contained) {
        size_t dl = strlen(c->dir_real);
        if (dl == 0 || strncmp(real, c->dir_real, dl) != 0 || (real[dl] != '/' && c->dir_real[dl - 1] != '/')) {
            return OA_FAIL(OA_E_GE_FAILURE, "weight file [%s] of FileConstant [%s] resolves to [%s], outside the "
                                            "weight directory [%s]", path, n->name, real,
                           c->dir[0] != '\0' ? c->dir : c->dir_real);
        }
    }
    int fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return OA_FAIL(OA_E_GE_FAILURE, "open weight file [%s] of FileConstant [%s] failed: %s", real, n->name,
                       strerror(errno));
    }
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        return OA_FAIL(OA_E_GE_FAILURE, "weight file [%s] of FileConstant [%s] is not a regular file", real, n->name);
    }
    *fd_out = fd;
    return OA_OK;
}

static const oa_external_weight *find_user_mem(const oa_fc_load_opts *o, const char *file_name)
{
    const oa_external_weight *hit = NULL;
    for (size_t i = 0; i < o->n_user_mems; i++) {
        const oa_external_weight *u = &o->user_mems[i];
        if (u->file_name != NULL && strcmp(u->file_name, file_name) == 0) {
            hit = u; /* later registrations win (name-keyed map) */
        }
    }
    return hit;
}

static oa_status weight_dir(const oa_fc_load_opts *o, char *dir, size_t cap)
{
    dir[0] = '\0';
    char real[PATH_MAX];
    if (o->weight_path != NULL && o->weight_path[0] != '\0') {
        struct stat st;
        if (realpath(o->weight_path, real) == NULL || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
            return OA_FAIL(OA_E_GE_FAILURE, "weight path [%s] (ACL_MDL_WEIGHT_PATH_PTR) is not an existing "
                                            "directory", o->weight_path);
        }
    } else if (o->om_path != NULL && o->om_path[0] != '\0') {
        char om_real[PATH_MAX], om_dir[PATH_MAX];
        if (realpath(o->om_path, om_real) == NULL) {
            return OA_FAIL(OA_E_GE_FAILURE, "model path [%s] cannot be resolved: %s", o->om_path, strerror(errno));
        }
        if (!fc_dirname(om_real, om_dir, sizeof om_dir) || !fc_join(real, sizeof real, om_dir, "weight")) {
            return OA_FAIL(OA_E_GE_FAILURE, "model path [%s] is too long", om_real);
        }
    } else {
        return OA_OK;
    }
    int r = snprintf(dir, cap, "%s%s", real, strcmp(real, "/") == 0 ? "" : "/");
    if (r < 0 || (size_t)r >= cap) {
        return OA_FAIL(OA_E_GE_FAILURE, "weight directory [%s] is too long", real);
    }
    return OA_OK;
}

static void free_release(void *ctx, const void *data, size_t size)
{
    (void)ctx;
    (void)size;
    free((void *)(uintptr_t)data);
}

static oa_status place_node(oa_fc_set *s, const resolve_ctx *c, oa_fc_weight *w, bool contained, bool *mapped_new)
{
    const oa_fc_load_opts *o = c->o;
    const oa_node *n = w->node;
    bool v2 = o->runtime == OA_FC_RT_V2;
    oa_dtype dt;
    oa_shape shape;
    oa_status st = fc_node_tensor_type(n, &dt, &shape);
    if (st != OA_OK) {
        return st;
    }
    size_t nbytes = 0;
    if (!oa_tensor_nbytes(dt, &shape, &nbytes)) {
        if (oa_dtype_bits(dt) != 0 || w->length == 0) {
            char sb[128];
            return OA_FAIL(OA_E_GE_FAILURE, "FileConstant [%s] has no static byte size (%s %s)", n->name,
                           oa_dtype_name(dt), oa_shape_str(&shape, sb, sizeof sb));
        }
        nbytes = (size_t)w->length; /* DT_STRING and friends: the recorded length */
    }
    w->nbytes = nbytes;
    uint64_t span = OA_MAX((uint64_t)nbytes, w->length);
    const oa_external_weight *u = find_user_mem(o, w->file_name);
    if (u != NULL) {
        if (u->dev_ptr == NULL) {
            return OA_FAIL(OA_E_GE_PARAM, "device memory set for weight file [%s] is a null pointer", w->file_name);
        }
        bool off_ok = v2 ? (uint64_t)u->size > w->offset : (uint64_t)u->size >= w->offset;
        if (!off_ok || (uint64_t)u->size - w->offset < span) {
            return OA_FAIL(OA_E_GE_PARAM, "The device memory size set by the user via aclmdlSetExternalWeightAddress "
                           "for the external weight file is insufficient. Required: %llu bytes at offset %llu, "
                           "Provided: %zu bytes. File name: [%s], Node name: [%s].", (unsigned long long)span,
                           (unsigned long long)w->offset, u->size, w->file_name, n->name);
        }
        oa_blob *b = NULL;
        for (size_t i = 0; i < s->nblobs && b == NULL; i++) {
            if (oa_blob_data(s->blobs[i]) == u->dev_ptr && oa_blob_size(s->blobs[i]) == u->size) {
                b = s->blobs[i];
            }
        }
        if (b == NULL) {
            b = oa_blob_create(u->dev_ptr, u->size, NULL, NULL); /* never freed by us */
            if (b == NULL || (st = set_add_blob(s, b)) != OA_OK) {
                return b == NULL ? OA_E_NOMEM : st;
            }
        }
        w->source = OA_FC_SRC_USER;
        w->data = nbytes ? (const char *)u->dev_ptr + w->offset : g_empty;
        w->blob = b;
        w->blob_offset = (size_t)w->offset;
        return OA_OK;
    }
    int fd = -1;
    struct stat sb;
    char real[PATH_MAX];
    if ((st = open_weight(c, n, w->path, contained, &fd, &sb, real)) != OA_OK) {
        return st;
    }
    uint64_t fsize = (uint64_t)sb.st_size;
    if (fsize < w->offset || fsize - w->offset < span) {
        close(fd);
        return OA_FAIL(OA_E_GE_FAILURE, "weight file [%s] has %llu bytes; FileConstant [%s] needs %llu bytes at "
                       "offset %llu", real, (unsigned long long)fsize, n->name, (unsigned long long)span,
                       (unsigned long long)w->offset);
    }
    size_t align = o->min_align ? o->min_align : OA_MAX(oa_dtype_size(dt), (size_t)1);
    fc_mapping *m = NULL;
    st = mapping_acquire(o->device_id, fd, &sb, real, &m);
    if (st != OA_OK) {
        close(fd);
        return st;
    }
    bool dup;
    if ((st = set_add_map(s, m, &dup)) != OA_OK) {
        mapping_release(m);
        close(fd);
        return st;
    }
    if (dup) {
        mapping_release(m); /* the set already holds it */
    } else {
        *mapped_new = true;
    }
    const char *data = (const char *)oa_blob_data(m->blob) + w->offset;
    if (nbytes > 0 && ((uintptr_t)data % align) != 0) {
        /* A copy is unavoidable: a kernel may not read this dtype unaligned. */
        size_t cap;
        if (!oa_align_up(nbytes, 64, &cap)) {
            close(fd);
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "weight of [%s] is too large", n->name);
        }
        void *buf = aligned_alloc(64, cap);
        if (buf == NULL) {
            close(fd);
            return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "cannot allocate %zu bytes for weight [%s]", cap, n->name);
        }
        st = oa_fc_copy_from_file(buf, cap, real, w->offset, nbytes);
        close(fd);
        oa_blob *b = st == OA_OK ? oa_blob_create(buf, nbytes, free_release, NULL) : NULL;
        if (b == NULL) {
            free(buf);
            return st != OA_OK ? st : OA_E_NOMEM;
        }
        OA_LOGW("FileConstant [%s]: offset %llu of [%s] is not %zu-byte aligned; using a private copy", n->name,
                (unsigned long long)w->offset, real, align);
        if ((st = set_add_blob(s, b)) != OA_OK) {
            return st; /* b (and buf) released */
        }
        w->source = OA_FC_SRC_COPY;
        w->data = buf;
        w->blob = b;
        w->blob_offset = 0;
        return OA_OK;
    }
    close(fd);
    w->source = OA_FC_SRC_FILE;
    w->data = nbytes ? data : g_empty;
    w->blob = m->blob;
    w->blob_offset = (size_t)w->offset;
    return OA_OK;
}

/* ---- prefault ---- */

enum { R_ALL, R_IN_PLACE, R_PACKED };

static bool range_wanted(const oa_fc_weight *w, int which)
{
    if (w->source != OA_FC_SRC_FILE || w->nbytes == 0) {
        return false;
    }
    return which == R_ALL || (which == R_IN_PLACE) == w->in_place;
}

/* The page-aligned, merged ranges of the mapped weights (all, or those read
 * in place, or the others). */
static oa_status build_ranges(const oa_fc_set *s, int which, oa_page_range **out, size_t *count)
{
    *out = NULL;
    *count = 0;
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++) {
        n += range_wanted(&s->w[i], which);
    }
    if (n == 0) {
        return OA_OK;
    }
    oa_page_range *r = malloc(n * sizeof *r);
    if (r == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    for (size_t i = 0, k = 0; i < s->n; i++) {
        if (range_wanted(&s->w[i], which)) {
            r[k++] = (oa_page_range){s->w[i].data, s->w[i].nbytes};
        }
    }
    const size_t m = oa_page_ranges_merge(r, n);
    *out = r;
    *count = m;
    return OA_OK;
}

oa_fc_prefault oa_fc_prefault_from_env(oa_fc_prefault dflt)
{
    const char *e = getenv("OPENACL_WEIGHT_PREFAULT");
    if (e == NULL || e[0] == '\0') {
        return dflt;
    }
    if (strcmp(e, "none") == 0 || strcmp(e, "0") == 0) {
        return OA_FC_PREFAULT_NONE;
    }
    if (strcmp(e, "sync") == 0) {
        return OA_FC_PREFAULT_SYNC;
    }
    if (strcmp(e, "async") == 0 || strcmp(e, "1") == 0) {
        return OA_FC_PREFAULT_ASYNC;
    }
    OA_LOGW("OPENACL_WEIGHT_PREFAULT=%s is not none, async or sync; using the default", e);
    return dflt;
}

/* Prefaults the ranges of the weights `which` per mode (none: nothing). */
static void start_prefault(oa_fc_set *s, int which, oa_fc_prefault mode)
{
    oa_page_range *r = NULL;
    size_t n = 0;
    if (mode == OA_FC_PREFAULT_NONE || build_ranges(s, which, &r, &n) != OA_OK) {
        oa_error_clear();
        return;
    }
    s->prefault = oa_prefault_start(r, n, mode == OA_FC_PREFAULT_ASYNC);
    free(r);
}

oa_status oa_fc_load(oa_graph *root, const oa_fc_load_opts *o, oa_fc_set **out)
{
    if (root == NULL || o == NULL || out == NULL) {
        return OA_FAIL(OA_E_PARAM, "graph, options and output must not be null");
    }
    *out = NULL;
    oa_graph **gs;
    size_t ng;
    oa_status st = fc_all_graphs(root, &gs, &ng);
    if (st != OA_OK) {
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
        if (o->weight_path != NULL && o->weight_path[0] != '\0') {
            return OA_FAIL(OA_E_GE_FAILURE, "Weight path[%s] should be empty if model has no external weight",
                           o->weight_path);
        }
        return OA_OK;
    }
    oa_fc_set *s = calloc(1, sizeof *s);
    oa_fc_value_bins *bins = NULL;
    if (s == NULL || (s->w = calloc(count, sizeof *s->w)) == NULL) {
        free(gs);
        free(s);
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    resolve_ctx c = {.o = o, .dir = s->weight_dir};
    if ((st = weight_dir(o, s->weight_dir, sizeof s->weight_dir)) != OA_OK ||
        (st = oa_fc_value_bins_parse(o->value_bins, &bins)) != OA_OK) {
        goto fail;
    }
    c.bins = bins;
    if (s->weight_dir[0] != '\0' && realpath(s->weight_dir, c.dir_real) == NULL) {
        c.dir_real[0] = '\0'; /* no such directory: any node needing it fails to open its file */
    } else if (s->weight_dir[0] == '\0' && realpath(".", c.dir_real) == NULL) {
        c.dir_real[0] = '\0'; /* no current directory: relative locations fail to open */
    }
    /* 1. resolve every path, decide combined vs individual */
    bool *contained = calloc(count, sizeof *contained);
    if (contained == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "out of memory");
        goto fail;
    }
    s->combined = true;
    for (size_t gi = 0; gi < ng && st == OA_OK; gi++) {
        for (oa_node *nd = oa_graph_first_node(gs[gi]); nd && st == OA_OK; nd = nd->next) {
            if (nd->type != OA_OP_FILE_CONSTANT) {
                continue;
            }
            oa_fc_weight *w = &s->w[s->n];
            w->node = nd;
            oa_fc_ref ref;
            char *path = NULL;
            if ((st = resolve_path(&c, nd, &ref, &path, &contained[s->n])) != OA_OK) {
                break;
            }
            w->path = path;
            w->file_name = fc_basename(path);
            w->offset = ref.offset;
            w->length = ref.length;
            if (s->n > 0 && strcmp(s->w[0].path, path) != 0) {
                s->combined = false;
            }
            s->n++;
        }
    }
    /* 2. place every node */
    size_t new_maps = 0;
    for (size_t i = 0; i < s->n && st == OA_OK; i++) {
        bool mapped_new = false;
        st = place_node(s, &c, &s->w[i], contained[i], &mapped_new);
        new_maps += mapped_new;
    }
    free(contained);
    if (st != OA_OK) {
        goto fail;
    }
    start_prefault(s, R_ALL, o->prefault);
    OA_LOGI("placed %zu FileConstant nodes (%s, %zu files, weight dir [%s])", s->n,
            s->combined ? "combined" : "individual", new_maps, s->weight_dir);
    free(gs);
    oa_fc_value_bins_destroy(bins);
    *out = s;
    return OA_OK;
fail:
    free(gs);
    oa_fc_value_bins_destroy(bins);
    oa_fc_set_destroy(s);
    return st;
}

static void stop_prefault(oa_fc_set *s)
{
    oa_prefault_stop(s->prefault);
    s->prefault = NULL;
}

void oa_fc_set_drop_pages(oa_fc_set *s)
{
    if (s == NULL) {
        return;
    }
    stop_prefault(s);
    oa_page_range *r = NULL;
    size_t n = 0;
    if (build_ranges(s, R_ALL, &r, &n) != OA_OK) {
        oa_error_clear();
        return;
    }
    oa_page_ranges_drop(r, n);
    free(r);
}

void oa_fc_set_mark_in_place(oa_fc_set *s, const void *p, size_t n)
{
    if (s == NULL || p == NULL) {
        return;
    }
    const char *a = p, *b = a + n;
    for (size_t i = 0; i < s->n; i++) {
        oa_fc_weight *w = &s->w[i];
        const char *d = w->data;
        if (w->source == OA_FC_SRC_FILE && w->nbytes > 0 && d < b && a < d + w->nbytes) {
            w->in_place = true;
        }
    }
}

void oa_fc_set_settle(oa_fc_set *s, oa_fc_prefault prefault)
{
    if (s == NULL) {
        return;
    }
    stop_prefault(s);
    oa_page_range *packed = NULL;
    size_t np = 0;
    if (build_ranges(s, R_PACKED, &packed, &np) == OA_OK) {
        oa_page_ranges_drop(packed, np);
    }
    free(packed);
    start_prefault(s, R_IN_PLACE, prefault);
}

oa_status oa_fc_set_to_consts(oa_fc_set *s, oa_graph *root)
{
    if (s == NULL || root == NULL) {
        return OA_FAIL(OA_E_PARAM, "set and graph must not be null");
    }
    static const char *const drop[] = {"offset", "length", "location", "file_path", "file_id", NULL};
    for (size_t i = 0; i < s->n; i++) {
        oa_fc_weight *w = &s->w[i];
        oa_node *n = w->node;
        if (n->type != OA_OP_FILE_CONSTANT || oa_graph_root(n->graph) != root) {
            continue;
        }
        oa_dtype dt;
        oa_shape shape;
        oa_status st = fc_node_tensor_type(n, &dt, &shape);
        size_t nb;
        if (st != OA_OK) {
            return st;
        }
        if (!oa_tensor_nbytes(dt, &shape, &nb)) {
            continue; /* no fixed-size tensor (DT_STRING): stays a FileConstant */
        }
        oa_tensor *t;
        st = nb == 0 ? oa_graph_make_tensor(n->graph, dt, &shape, NULL, 0, &t)
                     : oa_graph_make_tensor_borrowed(n->graph, dt, &shape, w->blob, w->blob_offset, nb, &t);
        oa_node *c;
        if (st != OA_OK || (st = fc_replace_node(n, OA_OP_CONST, n->name, drop, &c)) != OA_OK ||
            (st = oa_node_set_tensor(c, "value", t)) != OA_OK) {
            return st;
        }
        w->node = c;
    }
    return OA_OK;
}

/*
 * Compile time: Const -> FileConstant (ComputeHashForConstNodes +
 * ConvertConstToFileConst) and moving the files next to the .om
 * (ChangeFilePath).
 */
#define OA_LOG_MODULE "GE"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "file_constant/fc_internal.h"

/* One Const to convert. */
typedef struct fc_item {
    oa_node *node;
    const char *graph_name;
    const oa_tensor *t;
    char hash[OA_FC_HASH_CAP];
    const char *location; /* meta path chosen for its hash (points into meta / scratch) */
    char *loc_own;        /* owned copy of location */
    uint64_t offset;
    bool first;           /* first item of its hash in sorted order */
} fc_item;

/* ---- weight directory ---- */

static oa_status tmp_dir_path(uint64_t session_id, char *out, size_t cap)
{
    char base[PATH_MAX];
    const char *env = getenv("ASCEND_WORK_PATH");
    if (env != NULL && env[0] != '\0') {
        oa_status st = fc_mkdirs(env);
        if (st != OA_OK) {
            return st;
        }
        if (realpath(env, base) == NULL) {
            return OA_FAIL(OA_E_GE_FAILURE, "ASCEND_WORK_PATH [%s] cannot be resolved: %s", env, strerror(errno));
        }
    } else if (getcwd(base, sizeof base) == NULL) {
        return OA_FAIL(OA_E_GE_FAILURE, "cannot get the current directory: %s", strerror(errno));
    }
    fc_remove_stale_tmp_dirs(base); /* those of killed builds: nothing else ever removes them */
    int r = snprintf(out, cap, "%s/" OA_FC_TMP_DIR_PREFIX "%ld_%llu", strcmp(base, "/") == 0 ? "" : base,
                     (long)getpid(), (unsigned long long)session_id);
    if (r < 0 || (size_t)r >= cap) {
        return OA_FAIL(OA_E_GE_FAILURE, "weight directory under [%s] is too long", base);
    }
    return OA_OK;
}

oa_status oa_fc_weight_dir(const oa_fc_convert_opts *opts, char *out, size_t cap)
{
    if (opts == NULL || out == NULL || cap == 0) {
        return OA_FAIL(OA_E_PARAM, "weight directory arguments must not be null");
    }
    char want[PATH_MAX];
    oa_status st;
    if (opts->weight_dir != NULL && opts->weight_dir[0] != '\0') {
        if (!oa_strlcpy(want, opts->weight_dir, sizeof want)) {
            return OA_FAIL(OA_E_GE_FAILURE, "external weight directory [%s] is too long", opts->weight_dir);
        }
    } else if ((st = tmp_dir_path(opts->session_id, want, sizeof want)) != OA_OK) {
        return st;
    }
    if ((st = fc_mkdirs(want)) != OA_OK) {
        return st;
    }
    char real[PATH_MAX];
    if (realpath(want, real) == NULL) {
        return OA_FAIL(OA_E_GE_FAILURE, "external weight directory [%s] cannot be resolved: %s", want,
                       strerror(errno));
    }
    if (!oa_strlcpy(out, real, cap)) {
        return OA_FAIL(OA_E_GE_FAILURE, "external weight directory [%s] is too long", real);
    }
    return OA_OK;
}

void oa_fc_remove_tmp_dir(uint64_t session_id)
{
    char p[PATH_MAX];
    const char *env = getenv("ASCEND_WORK_PATH");
    char base[PATH_MAX];
    if (env != NULL && env[0] != '\0') {
        if (realpath(env, base) == NULL) {
            return;
        }
    } else if (getcwd(base, sizeof base) == NULL) {
        return;
    }
    int r = snprintf(p, sizeof p, "%s/" OA_FC_TMP_DIR_PREFIX "%ld_%llu", base, (long)getpid(),
                     (unsigned long long)session_id);
    if (r > 0 && (size_t)r < sizeof p) {
        (void)fc_remove_tree(p);
    }
}

/* ---- collection ---- */

static int cmp_item(const void *a, const void *b)
{
    const fc_item *x = a;
    const fc_item *y = b;
    int c = strcmp(x->node->name, y->node->name);
    if (c == 0) {
        c = strcmp(x->graph_name, y->graph_name);
    }
    if (c == 0) {
        c = (x->node->id > y->node->id) - (x->node->id < y->node->id);
    }
    return c;
}

static oa_status collect(oa_graph *root, fc_item **out, size_t *count)
{
    oa_graph **gs;
    size_t ng;
    oa_status st = fc_all_graphs(root, &gs, &ng);
    if (st != OA_OK) {
        return st;
    }
    fc_item *v = NULL;
    size_t n = 0, cap = 0;
    for (size_t gi = 0; gi < ng; gi++) {
        for (oa_node *nd = oa_graph_first_node(gs[gi]); nd; nd = nd->next) {
            if (nd->type != OA_OP_CONST && nd->type != OA_OP_CONSTANT) {
                continue;
            }
            const oa_tensor *t = NULL;
            if (!oa_attrs_get_tensor(&nd->attrs, "value", &t) || t == NULL || t->size == 0 || t->data == NULL) {
                OA_LOGW("const node [%s] has no weight data; it stays in the model", nd->name);
                continue;
            }
            if (n == cap) {
                cap = cap ? cap * 2 : 64;
                fc_item *nv = realloc(v, cap * sizeof *nv);
                if (nv == NULL) {
                    free(v);
                    free(gs);
                    return OA_FAIL(OA_E_NOMEM, "out of memory collecting const nodes");
                }
                v = nv;
            }
            memset(&v[n], 0, sizeof v[n]);
            v[n].node = nd;
            v[n].graph_name = oa_graph_name(gs[gi]);
            v[n].t = t;
            n++;
        }
    }
    free(gs);
    *out = v;
    *count = n;
    return OA_OK;
}

static oa_status hash_job(void *ctx, size_t i)
{
    fc_item *it = &((fc_item *)ctx)[i];
    return oa_fc_hash_bytes(it->t->data, it->t->size, it->hash);
}

/* ---- mode 1: one file per hash ---- */

typedef struct write_job {
    const char *path;
    const oa_tensor *t;
} write_job;

static oa_status write_one(void *ctx, size_t i)
{
    const write_job *j = &((const write_job *)ctx)[i];
    return fc_write_file_atomic(j->path, j->t->data, j->t->size, 0600, "weight_write");
}

/*
 * True when path is a regular file of the weight directory dir whose bytes at
 * [off, off + size) are data (and, exact, which ends there): a weight that a
 * meta.json names is reused only when its file really holds these bytes (the
 * hash it is filed under is only a claim; docs/external_weights.md).
 */
static bool file_holds(const char *dir, const char *path, uint64_t off, const void *data, size_t size, bool exact)
{
    char pdir[PATH_MAX];
    if (!fc_dirname(path, pdir, sizeof pdir) || strcmp(pdir, dir) != 0) {
        return false;
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return false;
    }
    struct stat st;
    bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= 0 && (uint64_t)st.st_size >= off &&
              (uint64_t)st.st_size - off >= size && (!exact || (uint64_t)st.st_size - off == size);
    const size_t chunk = (size_t)1 << 20;
    char *buf = ok && size > 0 ? malloc(size < chunk ? size : chunk) : NULL;
    ok = ok && (size == 0 || buf != NULL);
    for (size_t at = 0; ok && at < size; at += chunk) {
        const size_t n = size - at < chunk ? size - at : chunk;
        ok = fc_pread_all(fd, buf, n, off + at) && memcmp(buf, (const char *)data + at, n) == 0;
    }
    free(buf);
    close(fd);
    return ok;
}

static oa_status save_files(fc_item *items, size_t n, const char *dir, fc_meta *meta, unsigned threads,
                            oa_fc_convert_stats *stats)
{
    write_job *jobs = calloc(n ? n : 1, sizeof *jobs);
    char **paths = calloc(n ? n : 1, sizeof *paths);
    if (jobs == NULL || paths == NULL) {
        free(jobs);
        free(paths);
        return OA_FAIL(OA_E_NOMEM, "out of memory planning weight files");
    }
    size_t nj = 0;
    oa_status st = OA_OK;
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        fc_item *it = &items[i];
        char name[OA_FC_HASH_CAP + 8];
        snprintf(name, sizeof name, "weight_%s", it->hash);
        char path[PATH_MAX];
        if (!fc_join(path, sizeof path, dir, name)) {
            st = OA_FAIL(OA_E_GE_FAILURE, "weight path under [%s] is too long", dir);
            break;
        }
        it->loc_own = oa_strdup(path);
        if (it->loc_own == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "out of memory");
            break;
        }
        it->location = it->loc_own;
        it->offset = 0;
        if (!it->first) {
            continue;
        }
        fc_meta_entry *e = fc_meta_find(meta, it->hash);
        if (e != NULL && e->file != NULL && file_holds(dir, path, 0, it->t->data, it->t->size, true)) {
            OA_LOGI("reusing weight file [%s] for [%s]", path, it->node->name);
            stats->reused++;
            continue;
        }
        /* new (or recorded but missing/damaged): write it, meta names this file */
        if ((st = fc_meta_set(meta, it->hash, path, false, 0)) != OA_OK) {
            break;
        }
        e = fc_meta_find(meta, it->hash);
        e->has_offset = false; /* a stale combined offset would mislead later mode-2 builds */
        paths[nj] = it->loc_own;
        jobs[nj].path = paths[nj];
        jobs[nj].t = it->t;
        nj++;
        stats->bytes_written += it->t->size;
    }
    if (st == OA_OK && nj > 0) {
        st = fc_parallel_for(nj, threads, write_one, jobs);
        if (st != OA_OK) {
            st = OA_FAIL(st, "writing %zu weight files into [%s] failed", nj, dir);
        } else {
            stats->written += nj;
            fc_fsync_dir(dir);
        }
    }
    free(jobs);
    free(paths);
    return st;
}

/* ---- mode 2: one combined file ---- */

static void combined_name(oa_graph *root, const char *om_prefix, char *out, size_t cap)
{
    const char *prefix = om_prefix;
    if (prefix == NULL) {
        const char *p = NULL;
        if (oa_attrs_get_str(oa_graph_attrs(root), "ge.modelFileNamePrefix", &p)) {
            prefix = p;
        }
    }
    char om[NAME_MAX + 1] = "";
    if (prefix != NULL) {
        (void)oa_strlcpy(om, fc_basename(prefix), sizeof om);
        char *dot = strrchr(om, '.');
        if (dot != NULL) {
            *dot = '\0';
        }
    }
    const char *gname = oa_graph_name(root);
    if (om[0] != '\0') {
        snprintf(out, cap, "%s_weight_combined", om);
    } else if (gname != NULL && gname[0] != '\0') {
        snprintf(out, cap, "%s_weight_combined", gname);
    } else {
        snprintf(out, cap, "weight_combined");
    }
}

/* Appends len bytes then zeros up to the next multiple of 512; *offset is
 * the current end and advances. Exposed to tests through the hook stage. */
static oa_status append_padded(int fd, const char *path, const void *data, size_t len, uint64_t *offset,
                               bool hook)
{
    static const char zeros[OA_FC_COMBINED_ALIGN];
    uint64_t end;
    if (__builtin_add_overflow(*offset, (uint64_t)len, &end) || end > (uint64_t)INT64_MAX - OA_FC_COMBINED_ALIGN) {
        return OA_FAIL(OA_E_GE_FAILURE, "combined weight file [%s] offset %llu + %zu overflows", path,
                       (unsigned long long)*offset, len);
    }
    size_t half = len / 2;
    bool ok = fc_write_all(fd, data, half);
    if (ok && hook) {
        fc_hook("combined_write", path);
    }
    ok = ok && fc_write_all(fd, (const char *)data + half, len - half);
    size_t pad = (size_t)((OA_FC_COMBINED_ALIGN - end % OA_FC_COMBINED_ALIGN) % OA_FC_COMBINED_ALIGN);
    ok = ok && fc_write_all(fd, zeros, pad);
    if (!ok) {
        return OA_FAIL(OA_E_GE_FAILURE, "write weight file [%s] failed: %s", path, strerror(errno));
    }
    *offset = end + pad;
    return OA_OK;
}

static oa_status save_combined(oa_graph *root, const char *om_prefix, fc_item *items, size_t n, const char *dir,
                               fc_meta *meta, oa_fc_convert_stats *stats)
{
    char name[NAME_MAX + 1];
    combined_name(root, om_prefix, name, sizeof name);
    char path[PATH_MAX];
    if (!fc_join(path, sizeof path, dir, name)) {
        return OA_FAIL(OA_E_GE_FAILURE, "weight path under [%s] is too long", dir);
    }
    int fd = -1;
    uint64_t offset = 0;
    oa_status st = OA_OK;
    bool hooked = false;
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        fc_item *it = &items[i];
        fc_meta_entry *e = fc_meta_find(meta, it->hash);
        /* Known hash: reuse its recorded place, when the file really holds it
         * (GE trusts meta alone; a vanished file would give a broken model). */
        if (e != NULL && e->file != NULL) {
            uint64_t off = e->has_offset ? e->offset : 0;
            if (file_holds(dir, e->file, off, it->t->data, it->t->size, false)) {
                if (it->first) {
                    stats->reused++; /* first sight of this hash in this build: a previous build wrote it */
                }
                it->location = e->file;
                it->offset = off;
                continue;
            }
            OA_LOGW("meta.json names [%s] at offset %llu for weight %s but that file of the weight directory does "
                    "not hold its bytes; writing it again", e->file, (unsigned long long)off, it->hash);
        }
        if (fd < 0) {
            fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
            if (fd < 0) {
                st = OA_FAIL(OA_E_GE_FAILURE, "open weight file [%s] for writing failed: %s", path,
                             strerror(errno));
                break;
            }
            struct stat sb;
            if (fstat(fd, &sb) != 0) {
                st = OA_FAIL(OA_E_GE_FAILURE, "stat [%s] failed: %s", path, strerror(errno));
                break;
            }
            offset = (uint64_t)sb.st_size;
            if (offset % OA_FC_COMBINED_ALIGN != 0) {
                /* a writer was killed in the middle of an entry: that tail is
                 * named by no meta.json; keep new entries aligned after it */
                OA_LOGW("combined weight file [%s] ends at %llu, not a multiple of %u (an interrupted build); "
                        "padding", path, (unsigned long long)offset, OA_FC_COMBINED_ALIGN);
                uint64_t o2 = offset;
                st = append_padded(fd, path, "", 0, &o2, false);
                stats->bytes_written += o2 - offset;
                offset = o2;
                if (st != OA_OK) {
                    break;
                }
            }
        }
        uint64_t at = offset;
        if ((st = append_padded(fd, path, it->t->data, it->t->size, &offset, !hooked)) != OA_OK) {
            break;
        }
        hooked = true;
        stats->bytes_written += offset - at;
        stats->written++;
        if ((st = fc_meta_set(meta, it->hash, path, true, at)) != OA_OK) {
            break;
        }
        e = fc_meta_find(meta, it->hash);
        it->location = e->file;
        it->offset = at;
    }
    if (fd >= 0) {
        if (st == OA_OK && fsync(fd) != 0) {
            st = OA_FAIL(OA_E_GE_FAILURE, "fsync of [%s] failed: %s", path, strerror(errno));
        }
        if (close(fd) != 0 && st == OA_OK) {
            st = OA_FAIL(OA_E_GE_FAILURE, "close of [%s] failed: %s", path, strerror(errno));
        }
        fc_fsync_dir(dir);
    }
    return st;
}

/* ---- node rewrite ---- */

static oa_status rewrite(fc_item *it)
{
    oa_node *old = it->node;
    oa_graph *g = old->graph;
    const char *hash = it->hash;
    size_t need = strlen(old->name) + 1 + strlen(hash) + 1;
    char *name = malloc(need);
    if (name == NULL) {
        return OA_FAIL(OA_E_NOMEM, "out of memory");
    }
    snprintf(name, need, "%s_%s", old->name, hash);
    oa_node *fc;
    oa_status st = fc_replace_node(old, OA_OP_FILE_CONSTANT, name, (const char *const[]){"value", NULL}, &fc);
    free(name);
    if (st != OA_OK) {
        return st;
    }
    const oa_tensor_desc *d = &fc->outputs[0].desc;
    const oa_shape *os = d->origin_shape_set ? &d->origin_shape : &d->shape;
    int64_t dims[OA_MAX_RANK], odims[OA_MAX_RANK];
    int32_t rank = d->shape.rank > 0 ? d->shape.rank : 0;
    int32_t orank = os->rank > 0 ? os->rank : 0;
    for (int32_t i = 0; i < rank; i++) {
        dims[i] = d->shape.dims[i];
    }
    for (int32_t i = 0; i < orank; i++) {
        odims[i] = os->dims[i];
    }
    (void)g;
    if ((st = oa_node_set_str(fc, "_value_sha256", hash)) != OA_OK ||
        (st = oa_node_set_str(fc, "location", it->location)) != OA_OK ||
        (st = oa_node_set_int(fc, "offset", (int64_t)it->offset)) != OA_OK ||
        (st = oa_node_set_int(fc, "length", (int64_t)it->t->size)) != OA_OK ||
        (st = oa_node_set_dtype(fc, "dtype", d->dtype)) != OA_OK ||
        (st = oa_node_set_list_int(fc, "shape", dims, (size_t)rank)) != OA_OK ||
        (st = oa_node_set_list_int(fc, "original_shape", odims, (size_t)orank)) != OA_OK) {
        return st;
    }
    it->node = fc;
    return OA_OK;
}

oa_status oa_fc_convert_consts(oa_graph *root, const oa_fc_convert_opts *opts, oa_fc_convert_stats *stats_out)
{
    oa_fc_convert_stats stats;
    memset(&stats, 0, sizeof stats);
    if (root == NULL || opts == NULL) {
        return OA_FAIL(OA_E_PARAM, "graph and options must not be null");
    }
    if (opts->mode != OA_FC_MODE_FILES && opts->mode != OA_FC_MODE_COMBINED) {
        if (opts->mode != OA_FC_MODE_EMBED) {
            return OA_FAIL(OA_E_PARAM, "external weight mode %d is invalid", (int)opts->mode);
        }
        if (stats_out) {
            *stats_out = stats;
        }
        return OA_OK;
    }
    fc_item *items = NULL;
    size_t n = 0;
    oa_status st = collect(root, &items, &n);
    if (st != OA_OK) {
        return st;
    }
    if (n == 0) {
        free(items);
        OA_LOGI("graph [%s] has no const weight; no external weight file written", oa_graph_name(root));
        if (stats_out) {
            *stats_out = stats;
        }
        return OA_OK;
    }
    unsigned threads = fc_thread_count(opts->threads);
    st = fc_parallel_for(n, threads, hash_job, items);
    if (st != OA_OK) {
        free(items);
        return OA_FAIL(st, "hashing %zu weights failed", n);
    }
    qsort(items, n, sizeof *items, cmp_item); /* keys are unique (ids), so qsort is stable enough */
    for (size_t i = 0; i < n; i++) {
        items[i].first = true;
        for (size_t j = 0; j < i; j++) {
            if (strcmp(items[j].hash, items[i].hash) == 0) {
                items[i].first = false;
                break;
            }
        }
        stats.distinct += items[i].first;
    }
    stats.nodes = n;
    if ((st = oa_fc_weight_dir(opts, stats.weight_dir, sizeof stats.weight_dir)) != OA_OK) {
        free(items);
        return st;
    }
    fc_meta_lock lock;
    st = fc_meta_lock_open(&lock, stats.weight_dir);
    if (st == OA_OK) {
        st = opts->mode == OA_FC_MODE_FILES
                 ? save_files(items, n, stats.weight_dir, &lock.meta, threads, &stats)
                 : save_combined(root, opts->om_prefix, items, n, stats.weight_dir, &lock.meta, &stats);
    }
    if (st == OA_OK && stats.written > 0) {
        st = fc_meta_lock_commit(&lock);
    }
    /* locations may point into the meta strings: copy before closing */
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        if (items[i].location != items[i].loc_own) {
            free(items[i].loc_own);
            items[i].loc_own = oa_strdup(items[i].location);
            if (items[i].loc_own == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "out of memory");
            }
            items[i].location = items[i].loc_own;
        }
    }
    fc_meta_lock_close(&lock);
    for (size_t i = 0; i < n && st == OA_OK; i++) {
        st = rewrite(&items[i]);
    }
    for (size_t i = 0; i < n; i++) {
        free(items[i].loc_own);
    }
    free(items);
    if (st == OA_OK) {
        OA_LOGI("external weights of [%s]: %zu consts, %zu distinct, %zu written, %zu reused, dir [%s]",
                oa_graph_name(root), stats.nodes, stats.distinct, stats.written, stats.reused, stats.weight_dir);
    }
    if (stats_out) {
        *stats_out = stats;
    }
    return st;
}

/* ---- ChangeFilePath ---- */

typedef struct move_plan {
    char *src;
    char *dst;
} move_plan;

static oa_status copy_then_rename(const char *src, const char *dst)
{
    int in = open(src, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        return OA_FAIL(OA_E_GE_FAILURE, "open [%s] failed: %s", src, strerror(errno));
    }
    char tmp[PATH_MAX + 32];
    snprintf(tmp, sizeof tmp, "%s.tmp.%ld.0", dst, (long)getpid());
    int out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out < 0) {
        close(in);
        return OA_FAIL(OA_E_GE_FAILURE, "create [%s] failed: %s", tmp, strerror(errno));
    }
    char *buf = malloc(OA_FC_COPY_CHUNK);
    bool ok = buf != NULL;
    while (ok) {
        ssize_t r = read(in, buf, OA_FC_COPY_CHUNK);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r <= 0) {
            ok = r == 0;
            break;
        }
        ok = fc_write_all(out, buf, (size_t)r);
    }
    free(buf);
    ok = ok && fsync(out) == 0;
    ok = (close(out) == 0) && ok;
    close(in);
    if (!ok || rename(tmp, dst) != 0) {
        unlink(tmp);
        return OA_FAIL(OA_E_GE_FAILURE, "copy [%s] to [%s] failed: %s", src, dst, strerror(errno));
    }
    unlink(src);
    return OA_OK;
}

oa_status oa_fc_move_to_model_dir(oa_graph *root, const char *om_path)
{
    if (root == NULL || om_path == NULL || om_path[0] == '\0') {
        return OA_FAIL(OA_E_PARAM, "graph and om path must not be null");
    }
    char om_dir[PATH_MAX], wdir[PATH_MAX];
    if (!fc_dirname(om_path, om_dir, sizeof om_dir) || !fc_join(wdir, sizeof wdir, om_dir, "weight")) {
        return OA_FAIL(OA_E_GE_FAILURE, "om path [%s] is too long", om_path);
    }
    oa_graph **gs;
    size_t ng;
    oa_status st = fc_all_graphs(root, &gs, &ng);
    if (st != OA_OK) {
        return st;
    }
    move_plan *moves = NULL;
    size_t nm = 0, capm = 0;
    char **tmps = NULL;
    size_t nt = 0, capt = 0;
    for (size_t gi = 0; gi < ng && st == OA_OK; gi++) {
        for (oa_node *nd = oa_graph_first_node(gs[gi]); nd && st == OA_OK; nd = nd->next) {
            const char *loc = NULL;
            if (nd->type != OA_OP_FILE_CONSTANT || !oa_attrs_get_str(&nd->attrs, "location", &loc) ||
                loc[0] == '\0') {
                continue;
            }
            char real[PATH_MAX];
            if (realpath(loc, real) == NULL) {
                st = OA_FAIL(OA_E_GE_FAILURE, "location [%s] of FileConstant [%s] cannot be resolved: %s", loc,
                             nd->name, strerror(errno));
                break;
            }
            const char *t = strstr(real, OA_FC_TMP_DIR_PREFIX);
            if (t == NULL) {
                continue; /* a user weight directory: left as it is */
            }
            const char *slash = strchr(t, '/');
            if (slash == NULL) {
                st = OA_FAIL(OA_E_GE_FAILURE, "location [%s] of [%s] is a temporary directory, not a file", real,
                             nd->name);
                break;
            }
            size_t tl = (size_t)(slash - real);
            const char *base = fc_basename(real);
            char dst[PATH_MAX];
            if (!fc_join(dst, sizeof dst, wdir, base)) {
                st = OA_FAIL(OA_E_GE_FAILURE, "path under [%s] is too long", wdir);
                break;
            }
            bool seen = false;
            for (size_t i = 0; i < nm; i++) {
                seen = seen || strcmp(moves[i].src, real) == 0;
            }
            if (!seen) {
                if (nm == capm) {
                    capm = capm ? capm * 2 : 8;
                    move_plan *v = realloc(moves, capm * sizeof *v);
                    if (v == NULL) {
                        st = OA_FAIL(OA_E_NOMEM, "out of memory");
                        break;
                    }
                    moves = v;
                }
                moves[nm].src = oa_strdup(real);
                moves[nm].dst = oa_strdup(dst);
                nm++;
                if (moves[nm - 1].src == NULL || moves[nm - 1].dst == NULL) {
                    st = OA_FAIL(OA_E_NOMEM, "out of memory");
                    break;
                }
            }
            bool tseen = false;
            for (size_t i = 0; i < nt; i++) {
                tseen = tseen || (strlen(tmps[i]) == tl && strncmp(tmps[i], real, tl) == 0);
            }
            if (!tseen) {
                if (nt == capt) {
                    capt = capt ? capt * 2 : 4;
                    char **v = realloc(tmps, capt * sizeof *v);
                    if (v == NULL) {
                        st = OA_FAIL(OA_E_NOMEM, "out of memory");
                        break;
                    }
                    tmps = v;
                }
                tmps[nt] = strndup(real, tl);
                if (tmps[nt++] == NULL) {
                    st = OA_FAIL(OA_E_NOMEM, "out of memory");
                    break;
                }
            }
            st = oa_node_set_str(nd, "location", base);
        }
    }
    free(gs);
    if (st == OA_OK && nm > 0) {
        st = fc_mkdirs(wdir);
    }
    if (st == OA_OK && nm > 0) {
        fc_remove_stale_tmp_dirs(wdir); /* copies of killed builds (copy_then_rename's temp files) */
    }
    for (size_t i = 0; i < nm && st == OA_OK; i++) {
        if (rename(moves[i].src, moves[i].dst) != 0) {
            if (errno == EXDEV) {
                st = copy_then_rename(moves[i].src, moves[i].dst);
            } else {
                st = OA_FAIL(OA_E_GE_FAILURE, "move [%s] to [%s] failed: %s", moves[i].src, moves[i].dst,
                             strerror(errno));
            }
        }
    }
    if (st == OA_OK && nm > 0) {
        fc_fsync_dir(wdir);
    }
    for (size_t i = 0; i < nt && st == OA_OK; i++) {
        st = fc_remove_tree(tmps[i]);
    }
    for (size_t i = 0; i < nm; i++) {
        free(moves[i].src);
        free(moves[i].dst);
    }
    for (size_t i = 0; i < nt; i++) {
        free(tmps[i]);
    }
    free(moves);
    free(tmps);
    return st;
}

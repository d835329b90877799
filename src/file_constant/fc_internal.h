/*
 * Internals shared by the file_constant sources (not for other modules).
 */
#ifndef OA_FILE_CONSTANT_FC_INTERNAL_H
#define OA_FILE_CONSTANT_FC_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "file_constant/file_constant.h"

/*
 * Test hook: called at named points of the writers ("weight_write",
 * "combined_write", "meta_write", "meta_locked"), in the writing thread, with
 * the path concerned. NULL in production. Tests set it in a forked child to
 * pause there and SIGKILL it.
 */
extern void (*oa_fc_test_hook)(const char *stage, const char *path);

static inline void fc_hook(const char *stage, const char *path)
{
    if (oa_fc_test_hook != NULL) {
        oa_fc_test_hook(stage, path);
    }
}

/* ---- file system helpers (fc_fs.c); each reports its failure ---- */

/* mkdir -p with mode 0750 (existing directories are fine). */
oa_status fc_mkdirs(const char *path);
/* rm -rf of a directory tree (symlinks are removed, never followed). */
oa_status fc_remove_tree(const char *path);
/* Writes len bytes fully to fd (EINTR-safe). */
bool fc_write_all(int fd, const void *buf, size_t len);
/* Reads exactly len bytes at off; false on error or EOF. */
bool fc_pread_all(int fd, void *buf, size_t len, uint64_t off);
/*
 * Atomically replaces path with [data, data+len): writes path.tmp.<pid>.<n>
 * (mode), fsyncs it, renames it over path and fsyncs the directory. A kill
 * at any point leaves either the old or the new file. hook_stage is passed
 * to the test hook after half the bytes are written (NULL: no hook).
 */
oa_status fc_write_file_atomic(const char *path, const void *data, size_t len, unsigned mode,
                               const char *hook_stage);
/* fsync of a directory (best effort). */
void fc_fsync_dir(const char *dir);
/* Removes leftover "<name>.tmp.<pid>.<n>" files of dead writers in dir. */
void fc_remove_stale_temps(const char *dir);
/*
 * Under an exclusive flock of base itself: removes the temporary weight
 * directories OA_FC_TMP_DIR_PREFIX "<pid>_<n>" of processes that no longer
 * exist (a killed atc's), and stale temp files of dead writers in base.
 */
void fc_remove_stale_tmp_dirs(const char *base);
/* Last path component (after the last '/'); the string itself when none. */
const char *fc_basename(const char *path);
/* dirname into out ("." when path has no '/'). false when it does not fit. */
bool fc_dirname(const char *path, char *out, size_t cap);
/* snprintf that reports truncation as false. */
bool fc_join(char *out, size_t cap, const char *dir, const char *name);

/* ---- a small worker pool: run fn(ctx, i) for i in [0, n) on k threads ---- */

/* Runs every job; returns the first non-OK status (all jobs still run). */
oa_status fc_parallel_for(size_t n, unsigned threads, oa_status (*fn)(void *ctx, size_t i), void *ctx);
/* Thread count: explicit, else $MAX_COMPILE_CORE_NUMBER (1..256), else 8. */
unsigned fc_thread_count(unsigned explicit_threads);

/* ---- meta.json (fc_meta.c) ---- */

typedef struct fc_meta_entry {
    char *hash;
    char *file;        /* hash_to_weight_file, NULL when only an offset exists */
    bool has_offset;
    uint64_t offset;   /* hash_to_weight_offset */
} fc_meta_entry;

typedef struct fc_meta {
    fc_meta_entry *v;
    size_t n, cap;
} fc_meta;

void fc_meta_init(fc_meta *m);
void fc_meta_deinit(fc_meta *m);
fc_meta_entry *fc_meta_find(const fc_meta *m, const char *hash);
/* Adds or replaces hash's file (and offset when has_offset). */
oa_status fc_meta_set(fc_meta *m, const char *hash, const char *file, bool has_offset, uint64_t offset);
/* Parses meta.json text (len bytes). Errors: OA_E_GE_FAILURE naming path. */
oa_status fc_meta_parse(fc_meta *m, const char *text, size_t len, const char *path);
/* nlohmann dump(4) layout, keys sorted; malloc'd, NULL on OOM. */
char *fc_meta_render(const fc_meta *m, size_t *len);

/*
 * The locked meta.json of a directory: opened O_RDWR|O_CREAT 0600, flock
 * LOCK_EX, re-opened if another writer replaced the file meanwhile, parsed
 * (an empty file is an empty meta).
 */
typedef struct fc_meta_lock {
    int fd;
    char path[4096];
    fc_meta meta;
} fc_meta_lock;

oa_status fc_meta_lock_open(fc_meta_lock *l, const char *dir);
/* Writes l->meta atomically (temp + fsync + rename); the lock stays held. */
oa_status fc_meta_lock_commit(fc_meta_lock *l);
/* Unlocks, closes, frees. Accepts a zeroed struct (fd 0 is never ours: -1). */
void fc_meta_lock_close(fc_meta_lock *l);

/* JSON string escaping into a growing buffer (fc_meta.c). */
typedef struct fc_buf {
    char *p;
    size_t len, cap;
    bool oom;
} fc_buf;
void fc_buf_put(fc_buf *b, const char *s, size_t n);
void fc_buf_puts(fc_buf *b, const char *s);
void fc_buf_printf(fc_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void fc_buf_json_str(fc_buf *b, const char *s);

/* ---- graph helpers (fc_graph.c) ---- */

/* root and all its subgraphs, in .om order; malloc'd array. */
oa_status fc_all_graphs(const oa_graph *root, oa_graph ***out, size_t *n);
/*
 * Replaces node `old` (0 inputs, 1 output) by a new node of type `type`
 * named `name` (may equal old's name: old is renamed first) in the same
 * graph: output desc and every attr not in the NULL-terminated list `drop`
 * copied, consumers and control edges moved, old removed. *out receives the
 * new node.
 */
oa_status fc_replace_node(oa_node *old, oa_op_type type, const char *name, const char *const *drop, oa_node **out);

/* Output dtype/shape of a FileConstant: attrs dtype (else the output desc
 * dtype) and shape (else original_shape, else the output desc shape). */
oa_status fc_node_tensor_type(const oa_node *n, oa_dtype *dt, oa_shape *shape);

#endif /* OA_FILE_CONSTANT_FC_INTERNAL_H */

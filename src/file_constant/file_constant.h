/*
 * External weights (FileConstant): the compile-time conversion that atc's
 * --external_weight=1|2 performs, and the load-time placement the executors
 * perform (CANN's PreProcessFileConstants), plus zero-copy loading.
 *
 * Library oa_file_constant (internal, no public symbols). atc links it
 * directly; libascendcl gets it through the executors' part, so it is never a
 * libascendcl part of its own (like oa_graph).
 *
 * ------------------------------------------------------------------------
 * Compile time (docs/external_weights.md "Writing")
 *
 *   oa_fc_convert_consts(root, opts)      every Const/Constant with data, in
 *        (ComputeHash + ConvertConst-     every graph of root, becomes a
 *         ToFileConst)                    FileConstant whose bytes live in
 *                                         the weight directory
 *   oa_fc_move_to_model_dir(root, om)     ChangeFilePath: files under
 *                                         tmp_weight_* move to <om dir>/weight/
 *   oa_fc_summary_write(root, om, mode)   <om stem>_external_weights.json
 *   oa_fc_summary_print(om, out)          what atc --mode=1 shows
 *   oa_fc_file_consts_to_consts(root,..)  the reverse conversion
 *
 * Load time (docs/external_weights.md "Finding the file" and after)
 *
 *   oa_fc_load(root, opts, &set)          resolves, checks and maps every
 *                                         FileConstant; no byte is copied
 *   oa_fc_set_find(set, node)->data       where the node's weight is (a
 *                                         read-only file mapping or the
 *                                         application's device memory)
 *   oa_fc_set_to_consts(set, root)        optional: turn the FileConstants
 *                                         into Consts borrowing that memory
 *   oa_fc_set_destroy(set)                at unload
 *
 * Failure contract: functions returning oa_status report every failure once
 * (OA_FAIL) and return it. Load-time codes are CANN's as the application
 * sees them (README.md "Security checks"): OA_E_GE_PARAM (145000) for user
 * memory that is too small, OA_E_GE_FAILURE (500002) for every other refusal
 * (GE's internal FAILED/PARAM_INVALID become 500002 at the ACL boundary).
 *
 * Threads: compile-time functions may run concurrently in several threads
 * and processes on one weight directory (meta.json is locked). Load-time
 * functions are thread-safe; a set is used by one model.
 * ------------------------------------------------------------------------
 */
#ifndef OA_FILE_CONSTANT_FILE_CONSTANT_H
#define OA_FILE_CONSTANT_FILE_CONSTANT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/status.h"
#include "graph/graph.h"

/* ======================================================================
 * Hashing
 * ====================================================================== */

/* Longest rendered digest plus NUL (32 bytes, up to 2 hex digits each). */
#define OA_FC_HASH_CAP 65

/*
 * GE's rendering of a SHA-256 digest: each byte as lower-case hex WITHOUT
 * zero padding (0x05 -> "5", 0xab -> "ab"), so 32..64 characters.
 */
void oa_fc_hash_render(const uint8_t digest[32], char out[OA_FC_HASH_CAP]);

/* SHA-256 of [data, data+size) rendered as above. Errors: OA_E_INTERNAL. */
OA_MUST_CHECK oa_status oa_fc_hash_bytes(const void *data, size_t size, char out[OA_FC_HASH_CAP]);

/* ======================================================================
 * Compile time
 * ====================================================================== */

typedef enum oa_fc_mode {
    OA_FC_MODE_EMBED = 0,    /* weights stay in the .om (default) */
    OA_FC_MODE_FILES = 1,    /* one weight_<hash> file per distinct weight */
    OA_FC_MODE_COMBINED = 2, /* one <om>_weight_combined file, 512-byte aligned entries */
} oa_fc_mode;

/* Parses ge.externalWeight / atc --external_weight: "", "0", "1", "2".
 * Errors: OA_E_PARAM naming the value. */
OA_MUST_CHECK oa_status oa_fc_mode_parse(const char *s, oa_fc_mode *out);

/* Combined-file alignment and the file names. */
#define OA_FC_COMBINED_ALIGN 512u
#define OA_FC_META_NAME "meta.json"
#define OA_FC_TMP_DIR_PREFIX "tmp_weight_"

typedef struct oa_fc_convert_opts {
    oa_fc_mode mode;
    /* ge.externalWeightDir; NULL or "" -> $ASCEND_WORK_PATH/tmp_weight_<pid>_<session>
     * or ./tmp_weight_<pid>_<session>. Created (with parents) when missing. */
    const char *weight_dir;
    uint64_t session_id;
    /* ge.modelFileNamePrefix (atc --output) naming <om>_weight_combined;
     * NULL -> root graph attr "ge.modelFileNamePrefix", then the root graph
     * name, then "weight_combined". */
    const char *om_prefix;
    /* Writer threads of mode 1; 0 -> $MAX_COMPILE_CORE_NUMBER, default 8. */
    unsigned threads;
} oa_fc_convert_opts;

typedef struct oa_fc_convert_stats {
    char weight_dir[4096];   /* absolute weight directory that was used */
    size_t nodes;            /* Const nodes converted */
    size_t distinct;         /* distinct hashes among them */
    size_t written;          /* weights written this time (files or combined entries) */
    size_t reused;           /* distinct hashes taken from an existing meta.json */
    uint64_t bytes_written;  /* including combined padding */
} oa_fc_convert_stats;

/*
 * The weight directory of opts (rule above), created and made absolute.
 * Errors: OA_E_GE_FAILURE (cannot create / resolve), OA_E_PARAM.
 */
OA_MUST_CHECK oa_status oa_fc_weight_dir(const oa_fc_convert_opts *opts, char *out, size_t cap);

/*
 * ComputeHashForConstNodes + ConvertConstToFileConst. Does nothing for
 * OA_FC_MODE_EMBED or a graph without weights. Order (hence combined
 * offsets): node name, then owner graph name, then node id. meta.json of
 * the directory is read, updated and replaced atomically under flock;
 * weight files are complete before meta.json names them (temp + rename in
 * mode 1; append + fsync before the meta update in mode 2). Each converted
 * node is replaced by FileConstant `<name>_<hash>` with attrs location
 * (absolute path), offset, length, dtype, shape, original_shape and
 * _value_sha256; consumers and control edges are moved to it.
 * stats may be NULL.
 * Errors: OA_E_GE_FAILURE (I/O, lock, corrupt meta.json), OA_E_NOMEM,
 * OA_E_PARAM.
 */
OA_MUST_CHECK oa_status oa_fc_convert_consts(oa_graph *root, const oa_fc_convert_opts *opts,
                                             oa_fc_convert_stats *stats);

/*
 * ChangeFilePath for an .om written to om_path: every FileConstant whose
 * real location lies under a tmp_weight_* directory gets location = the bare
 * file name and its file moves to <dirname(om_path)>/weight/; then those
 * temp directories are removed (with their meta.json). Locations elsewhere
 * (a user weight dir) stay untouched. Errors: OA_E_GE_FAILURE.
 */
OA_MUST_CHECK oa_status oa_fc_move_to_model_dir(oa_graph *root, const char *om_path);

/* Removes tmp_weight_<pid>_<session> (ExternalWeightManager::Finalize) if it
 * exists; atc calls it when a build fails. */
void oa_fc_remove_tmp_dir(uint64_t session_id);

/*
 * ConvertFileConstToConst: every FileConstant whose path resolves
 * (location > file_path > file_id, relative paths against base_dir when
 * non-NULL, else the CWD) becomes a Const holding its bytes (copied into
 * the graph, or borrowed from a read-only mapping when map is true); nodes
 * without any path stay. Reads are bounds-checked: offset+length must lie
 * in the file. Errors: OA_E_GE_FAILURE, OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_fc_file_consts_to_consts(oa_graph *root, const char *base_dir, const char *value_bins,
                                                    bool map);

/* ======================================================================
 * Summary of the external weight files (README.md "Summary file")
 * ====================================================================== */

/* "<om path without .om>_external_weights.json" into out. Errors: OA_E_PARAM. */
OA_MUST_CHECK oa_status oa_fc_summary_path(const char *om_path, char *out, size_t cap);

/*
 * Writes the summary of root's FileConstants next to om_path (atomically).
 * Nothing is written (and a stale summary is removed) when root has none.
 * Errors: OA_E_GE_FAILURE, OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_fc_summary_write(const oa_graph *root, const char *om_path, oa_fc_mode mode);

/*
 * Prints the summary next to om_path as text (files with their state on
 * disk, then each weight: id, location, offset, size, nodes). *found (may be
 * NULL) tells whether a summary exists; absent is not an error.
 * Errors: OA_E_GE_FAILURE (unreadable or malformed summary), OA_E_WRITE_FILE.
 */
OA_MUST_CHECK oa_status oa_fc_summary_print(const char *om_path, FILE *out, bool *found);

/* ======================================================================
 * Path resolution (GetFilePath and ge.exec.value_bins)
 * ====================================================================== */

typedef struct oa_fc_value_bins oa_fc_value_bins;

/*
 * Parses ge.exec.value_bins: {"value_bins":[{"value_bin_id":..,
 * "value_bin_file":..},..]} (every member of the top level is read as such
 * an array; the first occurrence of an id wins). NULL or "" gives an empty
 * map. Errors: OA_E_GE_FAILURE (not JSON), OA_E_NOMEM.
 */
OA_MUST_CHECK oa_status oa_fc_value_bins_parse(const char *json, oa_fc_value_bins **out);
size_t oa_fc_value_bins_count(const oa_fc_value_bins *m);
/* Path of id, or NULL when unknown. */
const char *oa_fc_value_bins_get(const oa_fc_value_bins *m, const char *id);
void oa_fc_value_bins_destroy(oa_fc_value_bins *m);

typedef enum oa_fc_path_src {
    OA_FC_PATH_NONE = 0,     /* file_id not in value_bins: empty path (GE warns only) */
    OA_FC_PATH_LOCATION = 1,
    OA_FC_PATH_FILE_PATH = 2,
    OA_FC_PATH_FILE_ID = 3,
} oa_fc_path_src;

/* Where a FileConstant's bytes are (strings borrowed from the node / map). */
typedef struct oa_fc_ref {
    const char *path;  /* "" for OA_FC_PATH_NONE */
    uint64_t offset;   /* location only, else 0 */
    uint64_t length;   /* location only, else 0 (0 = the tensor size) */
    oa_fc_path_src src;
} oa_fc_ref;

/*
 * GetFilePath: location (with offset/length) > file_path > file_id looked
 * up in bins (may be NULL = empty map). Errors (OA_E_GE_FAILURE): no
 * location/file_path and no or an empty file_id, a mapped empty path, a
 * negative offset or length.
 */
OA_MUST_CHECK oa_status oa_fc_get_file_path(const oa_node *n, const oa_fc_value_bins *bins, oa_fc_ref *out);

/* ======================================================================
 * Load time
 * ====================================================================== */

/*
 * One aclmdlSetExternalWeightAddress registration: acl_mdl keeps the list
 * in the model's config handle and hands it to the executors' load.
 */
typedef struct oa_external_weight {
    char *file_name; /* as the application passed it; executors match it by basename */
    void *dev_ptr;
    size_t size;     /* > 0, multiple of 32 */
} oa_external_weight;

typedef enum oa_fc_runtime {
    OA_FC_RT_V1 = 1, /* DavinciModel: location -> weight dir + basename; user memory size >= offset */
    OA_FC_RT_V2 = 2, /* RT2: weight dir + location; user memory size > offset (strict) */
} oa_fc_runtime;

/* What happens to the mapped pages after a load (README "Prefault"). */
typedef enum oa_fc_prefault {
    OA_FC_PREFAULT_NONE = 0,  /* pages are mapped by the first execution's reads */
    OA_FC_PREFAULT_ASYNC = 1, /* a background thread maps them (page cache hits), stopped by destroy */
    OA_FC_PREFAULT_SYNC = 2,  /* oa_fc_load maps them before returning */
} oa_fc_prefault;

/* $OPENACL_WEIGHT_PREFAULT (none|async|sync) or dflt when unset/invalid. */
oa_fc_prefault oa_fc_prefault_from_env(oa_fc_prefault dflt);

typedef struct oa_fc_load_opts {
    const char *om_path;      /* file loads; NULL for memory loads */
    const char *weight_path;  /* ACL_MDL_WEIGHT_PATH_PTR (a directory), or NULL */
    const oa_external_weight *user_mems; /* aclmdlSetExternalWeightAddress list (later entries win) */
    size_t n_user_mems;
    const char *value_bins;   /* ge.exec.value_bins JSON, or NULL */
    int32_t device_id;        /* weight manager key */
    oa_fc_runtime runtime;    /* 0 = V1 */
    /* A mapped weight whose address is not a multiple of this is copied
     * into an aligned private buffer (chunked reads); 0 = the dtype's
     * element size. User memory is never copied whatever its alignment. */
    size_t min_align;
    /* Mapping the weights' pages ahead of the first execution: only the
     * ranges the nodes read, never user memory. */
    oa_fc_prefault prefault;
} oa_fc_load_opts;

/* Fills opts from what an executor's load got (the model's path or NULL, the
 * weight directory, the external-weight list): device and runtime as given,
 * prefault from $OPENACL_WEIGHT_PREFAULT (default async), min_align 0. */
void oa_fc_load_opts_init(oa_fc_load_opts *opts, const char *om_path, const char *weight_dir,
                          const oa_external_weight *ext_weights, size_t n_ext_weights, int32_t device_id,
                          oa_fc_runtime runtime);

typedef enum oa_fc_source {
    OA_FC_SRC_FILE = 1,  /* read-only shared mapping of the weight file, in place */
    OA_FC_SRC_USER = 2,  /* application device memory (aclmdlSetExternalWeightAddress) + offset */
    OA_FC_SRC_COPY = 3,  /* private aligned copy (misaligned offset in the file) */
} oa_fc_source;

/* One placed FileConstant. */
typedef struct oa_fc_weight {
    oa_node *node;          /* the FileConstant (the Const after oa_fc_set_to_consts) */
    const char *path;       /* resolved path (owned by the set) */
    const char *file_name;  /* basename of path: the user-memory key */
    uint64_t offset;        /* byte offset in the file */
    uint64_t length;        /* `length` attr (0 = the tensor size) */
    size_t nbytes;          /* bytes the node exposes: tensor size (or length for DT_STRING) */
    const void *data;       /* the weight; never NULL (a static empty buffer when nbytes == 0) */
    oa_fc_source source;
    oa_blob *blob;          /* holds data alive: borrow [blob_offset, blob_offset + nbytes) */
    size_t blob_offset;
    bool in_place;          /* marked by oa_fc_set_mark_in_place */
} oa_fc_weight;

typedef struct oa_fc_set oa_fc_set;

/*
 * PreProcessFileConstants for the FileConstants of root and its subgraphs:
 *   1. weight dir = realpath(weight_path) (must be a directory), else
 *      <dirname(realpath(om_path))>/weight/, else none;
 *   2. path per node (V1: weight dir + basename(location); RT2: weight dir +
 *      location; else location / file_path / file_id);
 *   3. combined iff every node resolved to the same path string;
 *   4. user memory matched by basename wins (checked: size >= offset (RT2:
 *      >) and size - offset >= the node's bytes; used in place, never
 *      copied or freed); otherwise the file is mapped read-only once per
 *      device (shared by every model using it) and checked to hold
 *      [offset, offset + bytes).
 * *out is NULL when root has no FileConstant (and no weight_path was
 * given). Nothing is read outside the files or buffers.
 * Errors: see the header comment; every refusal names the node and file.
 */
OA_MUST_CHECK oa_status oa_fc_load(oa_graph *root, const oa_fc_load_opts *opts, oa_fc_set **out);

size_t oa_fc_set_count(const oa_fc_set *s);
const oa_fc_weight *oa_fc_set_at(const oa_fc_set *s, size_t i);
/* The weight of node n (FileConstant, or the Const that replaced it), or NULL. */
const oa_fc_weight *oa_fc_set_find(const oa_fc_set *s, const oa_node *n);
bool oa_fc_set_is_combined(const oa_fc_set *s);
/* True when [p, p + n) lies inside memory the set keeps alive (a mapping,
 * user memory or a private copy): an executor then points at it as it is. */
bool oa_fc_set_holds(const oa_fc_set *s, const void *p, size_t n);
/* The weight directory used ("" when none), ending with '/'. */
const char *oa_fc_set_weight_dir(const oa_fc_set *s);

/*
 * Replaces every FileConstant of the set by a Const of the same name whose
 * tensor borrows the weight (no copy; the graph takes blob references, so
 * the memory outlives the set while the graph lives). Consumers and control
 * edges move to the Const. For executors that only know Const.
 * Errors: OA_E_NOMEM, OA_E_PARAM.
 */
OA_MUST_CHECK oa_status oa_fc_set_to_consts(oa_fc_set *s, oa_graph *root);

/*
 * Executors building their kernels: the mapped weight bytes at [p, p + n)
 * will be read in place at run (not packed into a private copy). Marks every
 * weight overlapping that range.
 */
void oa_fc_set_mark_in_place(oa_fc_set *s, const void *p, size_t n);

/*
 * After the kernels are built: the pages of mapped weights NOT marked in
 * place (the kernels packed their own copies) are unmapped from the process
 * (MADV_DONTNEED; they stay in the page cache), and the marked ones are
 * prefaulted per `prefault` (a running prefault is stopped first). RSS then
 * holds the packed copies plus what runs in place.
 */
void oa_fc_set_settle(oa_fc_set *s, oa_fc_prefault prefault);

/*
 * For executors that pre-pack every weight into their own layout at load:
 * stops the prefault, then unmaps the pages of the mapped weight ranges from
 * this process (MADV_DONTNEED; they stay in the page cache, and a later read
 * maps them again), so RSS holds the packed copies only. User memory and
 * private copies are left alone.
 */
void oa_fc_set_drop_pages(oa_fc_set *s);

/* Releases the set's mappings (unmapped when no set or graph uses them any
 * more) and copies. User memory is left alone. Accepts NULL. */
void oa_fc_set_destroy(oa_fc_set *s);

/* Weight files currently mapped for device (all devices when < 0). Tests, logs. */
size_t oa_fc_mapped_files(int32_t device_id);

/* ---- copy helper ---- */

#define OA_FC_COPY_CHUNK (10u * 1024u * 1024u) /* 10 MiB, as GE */

/*
 * Copies size bytes of path starting at offset into dst (capacity dst_cap)
 * in 10 MiB chunks (CopyOneWeightFromFile). Unlike GE a file shorter than
 * offset + size is an error. Errors: OA_E_GE_FAILURE (open/read/short),
 * OA_E_GE_PARAM (size > dst_cap).
 */
OA_MUST_CHECK oa_status oa_fc_copy_from_file(void *dst, size_t dst_cap, const char *path, uint64_t offset,
                                             size_t size);

#endif /* OA_FILE_CONSTANT_FILE_CONSTANT_H */

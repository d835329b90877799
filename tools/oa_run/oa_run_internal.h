/*
 * oa_run's private declarations, shared by its files: oa_run.c (the model
 * runner and main), oa_run_cli.c (the command line) and oa_run_io.c (input
 * files, run folders, the TXT/BIN writers and --compare). Not installed.
 */
#ifndef OA_TOOLS_OA_RUN_INTERNAL_H
#define OA_TOOLS_OA_RUN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "acl/acl.h"

#define MAX_IO 64
#define MAX_SETS 100000

#define INFO_LOG(...) (printf("[INFO] " __VA_ARGS__), printf("\n"))
#define DEBUG_LOG(...) (printf("[DEBUG] " __VA_ARGS__), printf("\n"))
#define WARN_LOG(...) (printf("[WARN] " __VA_ARGS__), printf("\n"))
#define ERROR_LOG(...) (printf("[ERROR] " __VA_ARGS__), printf("\n"), fflush(stdout))

/* Reports a failed ACL call with the library's message and returns 1 from the caller. */
#define CHECK(expr)                                                                                  \
    do {                                                                                             \
        aclError ret_ = (expr);                                                                      \
        if (ret_ != ACL_SUCCESS) {                                                                   \
            const char *m_ = aclGetRecentErrMsg();                                                   \
            ERROR_LOG("%s failed, error code %d%s%s", #expr, (int)ret_, m_ != NULL ? ": " : "",      \
                      m_ != NULL ? m_ : "");                                                         \
            return 1;                                                                                \
        }                                                                                            \
    } while (0)

enum dym_kind { DYM_NONE, DYM_BATCH, DYM_HW, DYM_DIMS, DYM_SHAPE };

typedef struct named_shape {
    char name[ACL_MAX_TENSOR_NAME_LEN];
    int64_t dims[ACL_MAX_DIM_CNT];
    size_t n_dims;
} named_shape;

typedef struct opts {
    const char *model, *input, *output, *compare, *load;
    int txt, debug, async, top5, dump, profiler;
    long loop, warmup, device;
    enum dym_kind dym;
    uint64_t batch, hw[2];
    int64_t dims[ACL_MAX_DIM_CNT]; /* --dymDims, every input's dims concatenated */
    size_t n_dims;
    named_shape shapes[MAX_IO]; /* --dymShape */
    size_t n_shapes;
    size_t out_size[MAX_IO]; /* --outputSize */
    size_t n_out_size;
    double tol;
} opts;

/* The loaded model and its output buffers (kept over every input set). */
typedef struct runner {
    uint32_t id;
    aclmdlDesc *desc;
    size_t n_in, n_out, gear_index;
    aclmdlDataset *out;
    void *out_dev[MAX_IO];
    size_t out_cap[MAX_IO];
    aclrtStream stream;
    aclmdlExecConfigHandle *exec_cfg;
    double *times; /* one per timed execution */
    size_t n_times, cap_times;
    double h2d_ms, d2h_ms;
    size_t n_h2d, n_d2h;
} runner;

/* oa_run_cli.c: parses argv into *o. Returns 0 to run, 2 on a bad command line, -1 after --help. */
int oa_run_parse(int argc, char **argv, opts *o);

/* oa_run_io.c */
double oa_run_now_ms(void);
/* The whole file in a malloc'd buffer (NULL when unreadable); *size its length. */
void *oa_run_read_file(const char *path, size_t *size);
int oa_run_is_dir(const char *p);
/* mkdir -p: 0 when path is a directory afterwards. */
int oa_run_mkdir_p(const char *path);
/* <output>/YYYYMMDD_HHMMSS (msame's folder; "_1", "_2", ... when that second's folder exists). */
int oa_run_make_run_dir(const char *output, char *out, size_t cap);
/* The file name of path without its directory and its last extension, in buf. */
char *oa_run_path_stem(const char *path, char *buf, size_t cap);
/* The file names in dir (no dot files, no subdirectories), sorted; free with oa_run_free_strv. */
char **oa_run_list_dir(const char *dir, size_t *count);
/* Copies every output to the host, writes <run_dir>/<stem>_output_<j>.txt|bin, prints --top5 and
 * runs --compare (*bad set on a mismatch or a failed write). Returns 1 when a copy fails. */
int oa_run_write_outputs(const opts *o, runner *r, const char *run_dir, const char *stem, int *bad);
/* Splits --input; *dirs is set when every entry is a directory (-1 when they mix). */
char **oa_run_split_inputs(const char *input, size_t *n, int *dirs);
void oa_run_free_strv(char **v, size_t n);

#endif /* OA_TOOLS_OA_RUN_INTERNAL_H */

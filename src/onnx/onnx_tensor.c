/*
 * ONNX TensorProto -> IR tensors: dtype mapping, dims validation, data from
 * raw_data or the typed fields (borrowed from the unpacked message when
 * the layout matches, converted into the arena otherwise), and external
 * data (data_location=EXTERNAL) with its path and size checks
 * (docs/ge_ir.md "Const and FileConstant from ONNX").
 */
#define OA_LOG_MODULE "GE"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/util.h"
#include "graph/blob.h"
#include "onnx/onnx_internal.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the ONNX importer assumes a little-endian host (ONNX raw_data is little-endian)"
#endif

bool oa_onnx_dtype_to_ge(int onnx_type, oa_dtype *out)
{
    static const int MAP[] = {
        [1] = OA_DT_FLOAT,   [2] = OA_DT_UINT8,      [3] = OA_DT_INT8,        [4] = OA_DT_UINT16,
        [5] = OA_DT_INT16,   [6] = OA_DT_INT32,      [7] = OA_DT_INT64,       [8] = OA_DT_STRING,
        [9] = OA_DT_BOOL,    [10] = OA_DT_FLOAT16,   [11] = OA_DT_DOUBLE,     [12] = OA_DT_UINT32,
        [13] = OA_DT_UINT64, [14] = OA_DT_COMPLEX64, [15] = OA_DT_COMPLEX128, [16] = OA_DT_BF16,
        [17] = OA_DT_FLOAT8_E4M3FN, [18] = -1, [19] = OA_DT_FLOAT8_E5M2, [20] = -1, [21] = -1,
        [22] = OA_DT_INT4,
    };
    if (onnx_type <= 0 || (size_t)onnx_type >= OA_ARRAY_SIZE(MAP) || MAP[onnx_type] < 0) {
        return false;
    }
    *out = (oa_dtype)MAP[onnx_type];
    return true;
}

oa_status oa_onnx_tensor_shape(const Onnx__TensorProto *tp, const char *what, oa_shape *out)
{
    if (tp->n_dims > OA_MAX_RANK) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "%s has rank %zu; at most %d is supported", what, tp->n_dims,
                       OA_MAX_RANK);
    }
    oa_shape s;
    memset(&s, 0, sizeof(s));
    s.rank = (int32_t)tp->n_dims;
    int64_t n = 1;
    for (size_t i = 0; i < tp->n_dims; i++) {
        if (tp->dims[i] < 0) {
            return OA_FAIL(OA_E_PARSE_MODEL, "%s has negative dim %lld at index %zu", what, (long long)tp->dims[i], i);
        }
        s.dims[i] = tp->dims[i];
        if (!oa_mul_i64(n, tp->dims[i], &n)) {
            return OA_FAIL(OA_E_PARSE_MODEL, "%s has an element count that overflows (dim %zu = %lld)", what, i,
                           (long long)tp->dims[i]);
        }
    }
    *out = s;
    return OA_OK;
}

/* Typed-field element count check. */
static oa_status count_check(const char *what, const char *field, size_t have, int64_t want)
{
    if ((int64_t)have != want) {
        return OA_FAIL(OA_E_PARSE_MODEL, "%s: %s holds %zu elements, its dims need %lld", what, field, have,
                       (long long)want);
    }
    return OA_OK;
}

oa_status oa_onnx_tensor_from_proto(onnx_importer *imp, oa_graph *g, const Onnx__TensorProto *tp, const char *what,
                                    oa_tensor **out)
{
    *out = NULL;
    if (tp->segment != NULL) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "%s is stored in segments, which is not supported", what);
    }
    oa_dtype dt;
    if (!tp->has_data_type || !oa_onnx_dtype_to_ge(tp->data_type, &dt)) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "%s has ONNX data type %d, which has no GE counterpart", what,
                       tp->has_data_type ? (int)tp->data_type : 0);
    }
    if (dt == OA_DT_STRING) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "%s is a string tensor; string tensors are not supported", what);
    }
    oa_shape s;
    oa_status st = oa_onnx_tensor_shape(tp, what, &s);
    if (st != OA_OK) {
        return st;
    }
    int64_t n;
    size_t nbytes;
    if (!oa_shape_numel(&s, &n) || !oa_tensor_nbytes(dt, &s, &nbytes)) {
        return OA_FAIL(OA_E_PARSE_MODEL, "%s: byte size of %s with %lld elements overflows", what, oa_dtype_name(dt),
                       (long long)n);
    }
    if (tp->has_raw_data && tp->raw_data.len > 0) {
        if (tp->raw_data.len != nbytes) {
            char sb[160];
            return OA_FAIL(OA_E_PARSE_MODEL, "%s: raw_data has %zu bytes, %s%s needs %zu", what, tp->raw_data.len,
                           oa_dtype_name(dt), oa_shape_str(&s, sb, sizeof(sb)), nbytes);
        }
        /* Borrow from the unpacked message (kept alive by msg_blob). */
        return oa_graph_make_tensor_borrowed_ptr(g, dt, &s, imp->msg_blob, tp->raw_data.data, nbytes, out);
    }
    if (n == 0) {
        return oa_graph_make_tensor(g, dt, &s, NULL, 0, out);
    }
    switch (dt) {
    case OA_DT_FLOAT:
        if ((st = count_check(what, "float_data", tp->n_float_data, n)) != OA_OK) {
            return st;
        }
        return oa_graph_make_tensor_borrowed_ptr(g, dt, &s, imp->msg_blob, tp->float_data, nbytes, out);
    case OA_DT_INT64:
        if ((st = count_check(what, "int64_data", tp->n_int64_data, n)) != OA_OK) {
            return st;
        }
        return oa_graph_make_tensor_borrowed_ptr(g, dt, &s, imp->msg_blob, tp->int64_data, nbytes, out);
    case OA_DT_INT32:
        if ((st = count_check(what, "int32_data", tp->n_int32_data, n)) != OA_OK) {
            return st;
        }
        return oa_graph_make_tensor_borrowed_ptr(g, dt, &s, imp->msg_blob, tp->int32_data, nbytes, out);
    case OA_DT_DOUBLE:
        if ((st = count_check(what, "double_data", tp->n_double_data, n)) != OA_OK) {
            return st;
        }
        return oa_graph_make_tensor_borrowed_ptr(g, dt, &s, imp->msg_blob, tp->double_data, nbytes, out);
    case OA_DT_UINT64:
        if ((st = count_check(what, "uint64_data", tp->n_uint64_data, n)) != OA_OK) {
            return st;
        }
        return oa_graph_make_tensor_borrowed_ptr(g, dt, &s, imp->msg_blob, tp->uint64_data, nbytes, out);
    case OA_DT_UINT32: {
        if ((st = count_check(what, "uint64_data", tp->n_uint64_data, n)) != OA_OK) {
            return st;
        }
        oa_tensor *t;
        if ((st = oa_graph_make_tensor(g, dt, &s, NULL, nbytes, &t)) != OA_OK) {
            return st;
        }
        uint32_t *d = (uint32_t *)(uintptr_t)t->data;
        for (int64_t k = 0; k < n; k++) {
            d[k] = (uint32_t)tp->uint64_data[k];
        }
        *out = t;
        return OA_OK;
    }
    case OA_DT_INT8:
    case OA_DT_UINT8:
    case OA_DT_BOOL:
    case OA_DT_INT16:
    case OA_DT_UINT16:
    case OA_DT_FLOAT16:
    case OA_DT_BF16: {
        if ((st = count_check(what, "int32_data", tp->n_int32_data, n)) != OA_OK) {
            return st;
        }
        oa_tensor *t;
        if ((st = oa_graph_make_tensor(g, dt, &s, NULL, nbytes, &t)) != OA_OK) {
            return st;
        }
        unsigned char *d = (unsigned char *)(uintptr_t)t->data;
        size_t esz = oa_dtype_size(dt);
        for (int64_t k = 0; k < n; k++) {
            uint32_t v = (uint32_t)tp->int32_data[k];
            if (dt == OA_DT_BOOL) {
                v = v != 0;
            }
            memcpy(d + (size_t)k * esz, &v, esz); /* little-endian: low bytes first */
        }
        *out = t;
        return OA_OK;
    }
    default:
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "%s: %s data must be given in raw_data", what, oa_dtype_name(dt));
    }
}

/* ---- external data ---- */

/* Non-negative decimal integer string. */
static bool parse_u64(const char *s, int64_t *out)
{
    if (s == NULL || *s == '\0' || strlen(s) > 18) {
        return false;
    }
    int64_t v = 0;
    for (const char *p = s; *p; p++) {
        if (*p < '0' || *p > '9') {
            return false;
        }
        v = v * 10 + (*p - '0');
    }
    *out = v;
    return true;
}

/* Resolves `location` under the model directory; *resolved is malloc'd. */
static oa_status resolve_location(const onnx_importer *imp, const char *location, const char *what, char **resolved)
{
    *resolved = NULL;
    if (imp->model_dir == NULL) {
        return OA_FAIL(OA_E_INVALID_FILE, "%s has external data [%s] but the model was not loaded from a file", what,
                       location);
    }
    if (location[0] == '\0') {
        return OA_FAIL(OA_E_INVALID_FILE, "%s has an empty external data location", what);
    }
    if (location[0] == '/') {
        return OA_FAIL(OA_E_INVALID_FILE, "%s: external data location [%s] is absolute; it must be relative to the "
                                          "model directory", what, location);
    }
    for (const char *p = location; *p;) {
        const char *e = strchr(p, '/');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            return OA_FAIL(OA_E_INVALID_FILE, "%s: external data location [%s] contains '..'", what, location);
        }
        p += len;
        while (*p == '/') {
            p++;
        }
    }
    char dir_real[PATH_MAX];
    if (realpath(imp->model_dir, dir_real) == NULL) {
        return OA_FAIL(OA_E_INVALID_FILE, "cannot resolve the model directory [%s]: %s", imp->model_dir,
                       strerror(errno));
    }
    size_t need = strlen(dir_real) + 1 + strlen(location) + 1;
    char *joined = malloc(need);
    if (joined == NULL) {
        return OA_FAIL(OA_E_NOMEM, "cannot allocate a path");
    }
    snprintf(joined, need, "%s/%s", dir_real, location);
    char *real = realpath(joined, NULL);
    if (real == NULL) {
        oa_status st = OA_FAIL(OA_E_INVALID_FILE, "%s: external data file [%s] cannot be opened: %s", what, joined,
                               strerror(errno));
        free(joined);
        return st;
    }
    free(joined);
    size_t dl = strlen(dir_real);
    bool inside = strncmp(real, dir_real, dl) == 0 && (real[dl] == '/' || (dl == 1 && dir_real[0] == '/'));
    if (!inside) {
        oa_status st = OA_FAIL(OA_E_INVALID_FILE, "%s: external data [%s] resolves to [%s], outside the model "
                                                  "directory [%s]", what, location, real, dir_real);
        free(real);
        return st;
    }
    *resolved = real;
    return OA_OK;
}

/* Size of a regular file opened without following a final symlink. */
static oa_status file_size(const char *path, const char *what, int64_t *size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return OA_FAIL(OA_E_INVALID_FILE, "%s: cannot open external data file [%s]: %s", what, path, strerror(errno));
    }
    struct stat st;
    int rc = fstat(fd, &st);
    close(fd);
    if (rc != 0 || !S_ISREG(st.st_mode)) {
        return OA_FAIL(OA_E_INVALID_FILE, "%s: external data [%s] is not a regular file", what, path);
    }
    *size = (int64_t)st.st_size;
    return OA_OK;
}

typedef struct ext_ref {
    char *path;     /* malloc'd resolved path */
    int64_t offset;
    int64_t length;
    bool has_length;
} ext_ref;

static oa_status read_ext(const onnx_importer *imp, const Onnx__TensorProto *tp, const char *what, size_t nbytes,
                          ext_ref *r)
{
    memset(r, 0, sizeof(*r));
    const char *location = NULL;
    for (size_t i = 0; i < tp->n_external_data; i++) {
        const Onnx__StringStringEntryProto *e = tp->external_data[i];
        const char *k = e->key ? e->key : "";
        const char *v = e->value ? e->value : "";
        if (strcmp(k, "location") == 0) {
            location = v;
        } else if (strcmp(k, "offset") == 0) {
            if (!parse_u64(v, &r->offset)) {
                return OA_FAIL(OA_E_PARSE_MODEL, "%s: external data offset [%s] is not a non-negative integer", what,
                               v);
            }
        } else if (strcmp(k, "length") == 0) {
            if (!parse_u64(v, &r->length)) {
                return OA_FAIL(OA_E_PARSE_MODEL, "%s: external data length [%s] is not a non-negative integer", what,
                               v);
            }
            r->has_length = true;
        }
    }
    if (location == NULL) {
        return OA_FAIL(OA_E_PARSE_MODEL, "%s has data_location=EXTERNAL but no location", what);
    }
    oa_status st = resolve_location(imp, location, what, &r->path);
    if (st != OA_OK) {
        return st;
    }
    int64_t fsize = 0;
    if ((st = file_size(r->path, what, &fsize)) != OA_OK) {
        free(r->path);
        r->path = NULL;
        return st;
    }
    if (r->has_length && (uint64_t)r->length != (uint64_t)nbytes) {
        st = OA_FAIL(OA_E_INVALID_FILE_SIZE, "%s: external data length %lld differs from the tensor size %zu", what,
                     (long long)r->length, nbytes);
    } else if (r->offset > fsize || (int64_t)nbytes > fsize - r->offset) {
        st = OA_FAIL(OA_E_INVALID_FILE_SIZE, "%s: external data [%s] range offset %lld + %zu bytes exceeds the file "
                                             "size %lld", what, location, (long long)r->offset, nbytes,
                     (long long)fsize);
    }
    if (st != OA_OK) {
        free(r->path);
        r->path = NULL;
    }
    r->length = (int64_t)nbytes;
    return st;
}

oa_status oa_onnx_make_const_node(onnx_importer *imp, onnx_scope *sc, const Onnx__TensorProto *tp, const char *name,
                                  const char *what, oa_node **out)
{
    oa_graph *g = sc->g;
    bool external = tp->has_data_location && tp->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    if (tp->has_data_location && !external && tp->data_location != ONNX__TENSOR_PROTO__DATA_LOCATION__DEFAULT) {
        return OA_FAIL(OA_E_PARSE_MODEL, "%s has unknown data_location %d", what, (int)tp->data_location);
    }
    if (!external) {
        oa_tensor *t;
        oa_status st = oa_onnx_tensor_from_proto(imp, g, tp, what, &t);
        if (st != OA_OK) {
            return st;
        }
        return oa_graph_add_const(g, name, t, out);
    }
    oa_dtype dt;
    if (!tp->has_data_type || !oa_onnx_dtype_to_ge(tp->data_type, &dt) || dt == OA_DT_STRING) {
        return OA_FAIL(OA_E_FEATURE_UNSUPPORTED, "%s has an unsupported data type %d", what,
                       tp->has_data_type ? (int)tp->data_type : 0);
    }
    oa_shape s;
    oa_status st = oa_onnx_tensor_shape(tp, what, &s);
    if (st != OA_OK) {
        return st;
    }
    size_t nbytes;
    if (!oa_tensor_nbytes(dt, &s, &nbytes)) {
        return OA_FAIL(OA_E_PARSE_MODEL, "%s: byte size overflows", what);
    }
    ext_ref r;
    if ((st = read_ext(imp, tp, what, nbytes, &r)) != OA_OK) {
        return st;
    }
    if (imp->opt->map_external_data) {
        oa_blob *b = oa_strmap_get(&imp->ext_files, r.path);
        if (b == NULL) {
            st = oa_blob_map_file(r.path, &b);
            if (st == OA_OK) {
                const char *key = oa_arena_strdup(oa_graph_arena(g), r.path);
                st = key ? oa_strmap_put(&imp->ext_files, key, b) : OA_E_NOMEM;
                if (st != OA_OK) {
                    oa_blob_release(b);
                }
            }
        }
        oa_tensor *t = NULL;
        if (st == OA_OK && oa_blob_size(b) < (size_t)r.offset + nbytes) {
            st = OA_FAIL(OA_E_INVALID_FILE_SIZE, "%s: external file [%s] shrank while loading", what, r.path);
        }
        if (st == OA_OK) {
            st = oa_graph_make_tensor_borrowed(g, dt, &s, b, (size_t)r.offset, nbytes, &t);
        }
        free(r.path);
        return st == OA_OK ? oa_graph_add_const(g, name, t, out) : st;
    }
    oa_node *n;
    st = oa_graph_add_node(g, OA_OP_FILE_CONSTANT, name, 0, 1, &n);
    int64_t dims[OA_MAX_RANK];
    for (int32_t i = 0; i < s.rank; i++) {
        dims[i] = s.dims[i];
    }
    if (st == OA_OK) {
        st = oa_node_set_str(n, "location", r.path);
    }
    if (st == OA_OK) {
        st = oa_node_set_int(n, "offset", r.offset);
    }
    if (st == OA_OK && r.has_length) {
        st = oa_node_set_int(n, "length", r.length);
    }
    if (st == OA_OK) {
        st = oa_node_set_list_int(n, "shape", dims, (size_t)s.rank);
    }
    if (st == OA_OK) {
        st = oa_node_set_list_int(n, "original_shape", dims, (size_t)s.rank);
    }
    if (st == OA_OK) {
        st = oa_node_set_dtype(n, "dtype", dt);
    }
    if (st == OA_OK) {
        oa_desc_set(oa_node_output_desc(n, 0), dt, &s);
        *out = n;
    }
    free(r.path);
    return st;
}

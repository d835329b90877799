/*
 * Basic value types of the graph IR: GE data types, GE formats, shapes,
 * shape ranges, tensor descriptors, inferred constant values and tensors.
 *
 * Everything here is plain data. Descriptors and tensors that belong to a
 * graph live in that graph's arena (see graph.h); pointers inside them
 * (name, value, tensor data) stay valid until the graph is destroyed.
 *
 * Conventions shared by every module that uses the IR:
 *   - dtypes are GE DataType values (oa_dtype == ge::DataType numbering);
 *     the .om writer converts to the proto numbering with
 *     oa_dtype_to_proto().
 *   - a shape has a rank (0 = scalar) and dims; OA_DIM_UNKNOWN (-1) marks
 *     an unknown dim; rank OA_RANK_UNKNOWN (-1) marks an unknown rank,
 *     which GE serialises as dims [-2] (OA_GE_UNKNOWN_RANK_DIM).
 *   - a shape range gives [min, max] per dim, max -1 meaning unbounded.
 */
#ifndef OA_GRAPH_TYPES_H
#define OA_GRAPH_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- data types ------------------------------------------------------- */

typedef enum oa_dtype {
#define OA_DTYPE(name, ge, proto, bits, str) OA_DT_##name = ge,
#include "graph/dtype_defs.inc"
#undef OA_DTYPE
    OA_DT_MAX = 43 /* one past the largest GE value; not a type */
} oa_dtype;

/* True when dt is a value listed in dtype_defs.inc. */
bool oa_dtype_valid(int dt);

/* "DT_FLOAT" style name; "DT_INVALID" for values outside the list. */
const char *oa_dtype_name(oa_dtype dt);

/* Short lowercase name for dumps ("f32", "i64", "bool", ...). */
const char *oa_dtype_short_name(oa_dtype dt);

/* Storage bits per element (4 for INT4); 0 for variable-size or invalid types. */
unsigned oa_dtype_bits(oa_dtype dt);

/* Bytes per element for byte-sized types; 0 for sub-byte, variable-size or invalid. */
size_t oa_dtype_size(oa_dtype dt);

/* Alignment a kernel needs to read elements of dt in place: the element size within [1, 16]. */
size_t oa_dtype_align(oa_dtype dt);

/* ge_ir.proto DataType number of dt; 0 (DT_UNDEFINED) for invalid values. */
int oa_dtype_to_proto(oa_dtype dt);

/* Inverse of oa_dtype_to_proto; unknown numbers give OA_DT_UNDEFINED. */
oa_dtype oa_dtype_from_proto(int proto);

/* Parses "DT_FLOAT" (or "float"/"float32"); false when unknown. */
bool oa_dtype_from_name(const char *name, oa_dtype *out);

/* Classification used by inference and value folding. */
bool oa_dtype_is_float(oa_dtype dt);   /* f16, f32, f64, bf16, fp8 kinds */
bool oa_dtype_is_int(oa_dtype dt);     /* signed and unsigned integers, not bool */
bool oa_dtype_is_signed(oa_dtype dt);  /* signed integers and floats */

/* ---- formats ----------------------------------------------------------- */

typedef enum oa_format {
#define OA_FORMAT(name, value, str) OA_FORMAT_##name = value,
#include "graph/format_defs.inc"
#undef OA_FORMAT
    OA_FORMAT_END = 52
} oa_format;

/* Layout string as written into TensorDescriptor.layout ("NCHW", "ND", ...);
 * "RESERVED" for values not in the list. Only the primary format (bits 0-7)
 * is looked at. */
const char *oa_format_name(oa_format f);

/* Parses a layout string; false when unknown. */
bool oa_format_from_name(const char *name, oa_format *out);

/* ---- shapes ------------------------------------------------------------ */

/* Largest rank the IR stores. ONNX tensors of higher rank are rejected at
 * import with a clear error; GE kernels are limited to 8 as well. */
#define OA_MAX_RANK 8
#define OA_DIM_UNKNOWN (-1)
#define OA_RANK_UNKNOWN (-1)
/* GE's serialised form of an unknown-rank shape is the single dim -2. */
#define OA_GE_UNKNOWN_RANK_DIM (-2)

typedef struct oa_shape {
    int32_t rank;               /* 0..OA_MAX_RANK, or OA_RANK_UNKNOWN */
    int64_t dims[OA_MAX_RANK];  /* dims[0..rank), each >= 0 or OA_DIM_UNKNOWN */
} oa_shape;

/* Shape helpers. oa_shape_make copies rank dims (rank <= OA_MAX_RANK, else
 * the result is unknown-rank). */
oa_shape oa_shape_make(int32_t rank, const int64_t *dims);
oa_shape oa_shape_unknown_rank(void);
oa_shape oa_shape_scalar(void);
bool oa_shape_is_static(const oa_shape *s);       /* known rank, every dim >= 0 */
bool oa_shape_equal(const oa_shape *a, const oa_shape *b);
/* Element count of a static shape; false when not static or on overflow. */
bool oa_shape_numel(const oa_shape *s, int64_t *out);
/* Writes "[1,3,-1,224]" ("[-2]" for unknown rank) into buf; returns buf. */
char *oa_shape_str(const oa_shape *s, char *buf, size_t cap);

/* ---- inferred values --------------------------------------------------- */

/* Largest element count value inference keeps for integer/bool tensors and
 * for floating tensors (see infer.h). */
#define OA_VALUE_MAX_INT_ELEMS 1024
#define OA_VALUE_MAX_FLOAT_ELEMS 64

/*
 * The compile-time value of a small tensor, as found by value inference
 * (Shape -> Gather -> Concat -> Reshape chains, Const inputs, ...).
 * Integer and bool tensors use i[], floating tensors f[]. When `unknown` is
 * non-NULL, unknown[k] != 0 marks element k as not known (partial values,
 * e.g. Shape of a tensor with a dynamic batch). Values are immutable once
 * attached to a descriptor; several descriptors may share one.
 */
typedef struct oa_value {
    oa_dtype dtype;
    int64_t count;           /* element count, equals the numel of the owner's shape */
    const int64_t *i;        /* count entries when the dtype is an integer or bool */
    const double *f;         /* count entries when the dtype is floating */
    const uint8_t *unknown;  /* NULL when every element is known */
} oa_value;

/* True when element k is known. */
static inline bool oa_value_known(const oa_value *v, int64_t k)
{
    return v->unknown == NULL || v->unknown[k] == 0;
}
/* True when every element is known. */
bool oa_value_all_known(const oa_value *v);

/* ---- attribute lists (the storage, API in graph.h) --------------------- */

typedef struct oa_attr oa_attr;
typedef struct oa_attrs {
    oa_attr *head;  /* singly linked, insertion order */
    uint32_t count;
} oa_attrs;

/* ---- tensor descriptors ------------------------------------------------ */

/*
 * A tensor descriptor: what GE's GeTensorDesc holds and what the .om
 * TensorDescriptor serialises. Input slots and outputs of nodes each carry
 * one. An unconnected optional input slot keeps a descriptor with
 * dtype OA_DT_UNDEFINED and format OA_FORMAT_RESERVED
 * (docs/ge_ir.md "Optional inputs").
 */
typedef struct oa_tensor_desc {
    oa_dtype dtype;
    oa_format format;
    oa_format origin_format;
    oa_shape shape;
    bool origin_shape_set;   /* origin_shape is meaningful */
    oa_shape origin_shape;
    bool has_range;          /* range_min/range_max hold shape.rank entries */
    int64_t range_min[OA_MAX_RANK];
    int64_t range_max[OA_MAX_RANK];  /* -1 = unbounded */
    const char *name;        /* optional (GE leaves it empty); NULL when unset */
    const oa_value *value;   /* inferred compile-time value or NULL */
    oa_attrs attrs;          /* descriptor attributes (e.g. _parent_node_index) */
} oa_tensor_desc;

/* A descriptor with dtype FLOAT, format ND, unknown rank (GE's default). */
void oa_desc_init(oa_tensor_desc *d);
/* The "invalid" descriptor of an unconnected optional input. */
void oa_desc_init_invalid(oa_tensor_desc *d);
/* Sets dtype, shape and ND format; drops range and value. */
void oa_desc_set(oa_tensor_desc *d, oa_dtype dt, const oa_shape *s);
/* True for the descriptor of an unconnected optional input. */
bool oa_desc_is_invalid(const oa_tensor_desc *d);

/* ---- tensors ----------------------------------------------------------- */

typedef struct oa_blob oa_blob;

/*
 * A tensor value (Const weights, attribute tensors). `data` points either
 * into the owning graph's arena (blob == NULL) or into a reference-counted
 * blob such as a mapped weight file (blob != NULL; the graph holds one
 * reference). size is the byte size; for fixed-size dtypes it equals
 * numel * element size. STRING tensors are not stored as tensors.
 */
typedef struct oa_tensor {
    oa_tensor_desc desc;
    const void *data;  /* NULL when size == 0 */
    size_t size;
    oa_blob *blob;
} oa_tensor;

/* Byte size of a tensor with this dtype and static shape: numel * bits / 8
 * rounded up. False when not static, the dtype has no fixed size, or on
 * overflow. */
bool oa_tensor_nbytes(oa_dtype dt, const oa_shape *s, size_t *out);

#endif /* OA_GRAPH_TYPES_H */

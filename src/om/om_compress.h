/*
 * Attribute compression of .om files (docs/om_format.md "Attribute compression").
 *
 * ATC compresses op and tensor attributes before saving: every attribute
 * name in an op's attr map, and in the attr maps of its input and output
 * descriptors, is replaced by a key
 *
 *     '\0' d0 d1 ... dk-1     with index = sum((di - 1) * 127^i)
 *
 * (digits stored as 1..127, least significant first) into the model attr
 * `attr_name_enum` (list s). When `attrs_use_string_value[index]` (list b) is
 * true the value was a string (or list of strings) and now holds an index
 * (or list of indices) into `attr_value_enum` (list s). The model attr
 * `om_compress_version` (i) marks a compressed model. Graph and model
 * attributes, attributes nested inside attribute values, and the attributes
 * the serializer adds itself are never compressed. Keys without the '\0'
 * prefix are kept as they are when decompressing.
 *
 * The compressor exists for tests: it reproduces ATC's algorithm (node order
 * of GE's GetAllNodes, names and values numbered by first use, the digit
 * count computed as floor(log(n) / log(127)) + 1 in double precision), so a
 * file decompressed and compressed again comes back byte-identical.
 * openacl's writers may simply leave models uncompressed.
 */
#ifndef OA_OM_COMPRESS_H
#define OA_OM_COMPRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/status.h"
#include "om/om_arena.h"
#include "om/om_pb.h"

/* Model attribute names of the dictionaries. */
#define OA_OM_ATTR_COMPRESS_VERSION "om_compress_version"
#define OA_OM_ATTR_NAME_ENUM "attr_name_enum"
#define OA_OM_ATTR_VALUE_ENUM "attr_value_enum"
#define OA_OM_ATTR_USE_STRING "attrs_use_string_value"

/* Longest key the decoder accepts: prefix + 5 digits (127^5 > 2^32). */
#define OA_OM_KEY_MAX 6

/* The dictionaries of one ModelDef, borrowed from its model attrs. */
typedef struct oa_om_dict {
    bool present; /* om_compress_version is set */
    const ProtobufCBinaryData *names;
    size_t n_names;
    const ProtobufCBinaryData *values;
    size_t n_values;
    const protobuf_c_boolean *use_string;
    size_t n_use_string;
} oa_om_dict;

/*
 * Reads the dictionaries of def into *d (borrowing def's memory). A model
 * without om_compress_version gives present = false. When it is present the
 * three lists must exist as lists of the right kind and names and
 * use_string must have the same length; otherwise OA_E_GE_LOAD_MODEL_PARTITION
 * (failure class F17) naming `what`.
 */
oa_status oa_om_dict_read(const Ge__Proto__ModelDef *def, const char *what, oa_om_dict *d) OA_MUST_CHECK;

/* True when key starts with the '\0' compression prefix. */
bool oa_om_key_is_compressed(const ProtobufCBinaryData *key);

/*
 * Decodes a compressed key into *index as CANN does ("\0" alone is index 0);
 * false for digit bytes of 0, keys longer than OA_OM_KEY_MAX or results
 * above UINT32_MAX.
 */
bool oa_om_key_decode(const ProtobufCBinaryData *key, size_t *index);

/* Encodes index as ATC does; returns the key length (out holds no NUL). */
size_t oa_om_key_encode(uint32_t index, uint8_t out[OA_OM_KEY_MAX]);

/*
 * Replaces, in every graph of def, each compressed op and tensor attribute
 * key by its name and every string-valued index by its string, using
 * dictionary d (which may belong to another ModelDef that outlives def).
 * New arrays come from arena a; names and strings are shared with the
 * dictionary's storage. Failure class F17 (OA_E_GE_LOAD_MODEL_PARTITION):
 * empty key, key or value index out of range, a name that is not UTF-8 (it
 * becomes a proto string key), or a string-valued name whose value is
 * neither an int nor a list. On failure def is partly rewritten and
 * must be discarded. *left_compressed (may be NULL) counts the keys that
 * still start with '\0' afterwards (names that were themselves keys).
 */
oa_status oa_om_decompress(Ge__Proto__ModelDef *def, const oa_om_dict *d, oa_om_arena *a, const char *what,
                           size_t *left_compressed) OA_MUST_CHECK;

/* Removes the four dictionary attributes from def's model attrs. */
void oa_om_dict_drop(Ge__Proto__ModelDef *def);

/*
 * Compresses def in place as ATC does and adds the dictionaries to its model
 * attrs (nothing happens when def already has om_compress_version or has no
 * attribute to compress). Memory comes from a. OA_E_GE_MEMORY_ALLOCATION on
 * OOM, OA_E_GE_PARAM for a graph structure the algorithm cannot walk
 * (unknown or looping subgraph names).
 */
oa_status oa_om_compress(Ge__Proto__ModelDef *def, oa_om_arena *a) OA_MUST_CHECK;

#endif /* OA_OM_COMPRESS_H */

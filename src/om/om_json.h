/*
 * JSON dump of an .om file, for `atc --mode=1 --om=x.om --json=x.json`.
 *
 * OA_OM_JSON_CANN reproduces what CANN's atc writes: the root model's
 * ge.proto.ModelDef converted by GE's Pb2Json rules --
 *   - object keys in byte order, indented by 2, ": " after keys, no final
 *     newline (nlohmann::json::dump(2));
 *   - fields named output, data_offset, data, workspace, workspace_bytes,
 *     memory_size, weight_size, size, bt, quantize_factor are left out;
 *   - proto3 fields at their default are left out, as are empty
 *     submessages; a submessage with nothing left to show becomes null;
 *   - enums by name; int64 and uint64 as numbers; a singular float as the
 *     string printf("%g") makes when that fits 9 characters, else a number;
 *     repeated floats as numbers (shortest round-trip form, "1.0" style);
 *   - singular bytes C-escaped (\n \r \t \" \' \\ and \ooo for the rest
 *     outside 0x20..0x7E); repeated bytes and strings raw; maps as arrays
 *     of {"key", "value"} objects in key order;
 *   - then compressed attributes are expanded the way Pb2Json does it on the
 *     JSON: dictionary attrs removed from the model attrs, every
 *     {"key","value"} object's compressed key replaced by its name and, for
 *     string-valued names, "i" by "s" and list "i" by "s" with val_type
 *     "VT_LIST_STRING";
 *   - strings are written as UTF-8 with control characters escaped; bytes
 *     that are not UTF-8 are dropped.
 * Known difference: CANN prints map entries in its hash-map order, which is
 * not reproducible; we print them sorted.
 *
 * The default (flags 0) is the whole file: an object with "header" (every
 * header field), "partition_tables" (offsets, types, sizes), "model" (the
 * root ModelDef as above), "submodels" (the other tables' ModelDefs) and,
 * when present, "model_inout_info".
 *
 * The image is opened with om_model.h first, so a file the reader refuses
 * is refused here with the same code.
 */
#ifndef OA_OM_JSON_H
#define OA_OM_JSON_H

#include <stddef.h>

#include "base/status.h"

typedef enum oa_om_json_flag {
    OA_OM_JSON_CANN = 1u << 0, /* only the root ModelDef, exactly as CANN's atc */
} oa_om_json_flag;

/* Dumps image[size]; *out is a malloc'd NUL-terminated string of *len bytes. */
oa_status oa_om_dump_json(const void *image, size_t size, unsigned flags, char **out, size_t *len) OA_MUST_CHECK;

/*
 * Dumps the .om at om_path into json_path (written atomically, mode 0600).
 * OA_E_WRITE_FILE when json_path cannot be written.
 */
oa_status oa_om_dump_json_file(const char *om_path, const char *json_path, unsigned flags) OA_MUST_CHECK;

#endif /* OA_OM_JSON_H */

/*
 * Protobuf messages of the .om format: decoding with protobuf-c, and a
 * deterministic encoder that reproduces the bytes CANN's C++ serializer
 * writes (docs/om_format.md "Serialization rules").
 *
 * Decoding = a wire-format check followed by protobuf_c_message_unpack()
 * into an arena. The check rejects, with the caller's failure code:
 *   - truncated varints, tags and fixed-width values; field number 0;
 *     wire types 3, 4, 6, 7 (groups and invalid types);
 *   - a length-delimited field whose length runs past its enclosing message
 *     (this covers every "string length past the end" case);
 *   - nesting deeper than OA_OM_PB_MAX_DEPTH (C++ protobuf's default limit),
 *     so protobuf-c's recursive unpack cannot exhaust the stack;
 *   - proto `string` fields that are not UTF-8 (C++ proto3 parsing fails on
 *     them) or that contain a NUL byte (protobuf-c's char* would silently
 *     truncate them); map keys, which our .proto declares as bytes, are held
 *     to the same UTF-8 rule but may contain NUL (compressed attribute keys);
 *   - messages larger than INT32_MAX bytes (C++ protobuf's limit);
 *   - input whose decoded form would take more than OA_OM_PB_MAX_EXPANSION
 *     times (its size + OA_OM_PB_EXPANSION_SLACK): an empty submessage
 *     costs 2 bytes on the wire but a few hundred bytes of struct, so a file
 *     of nothing but empty ops could otherwise ask for 150 times its size.
 * Then protobuf-c checks field wire types against the schema.
 *
 * Encoding rules (the C++ deterministic serializer's):
 *   - fields in ascending field-number order, then unknown fields as read;
 *   - proto3 scalars, strings and bytes omitted at their default (floats
 *     compared by bit pattern, so -0.0 is written); submessages written when
 *     set, even when empty;
 *   - a set oneof member always written, even when zero;
 *   - repeated scalars packed;
 *   - map entries (messages named "...Entry" with exactly key = 1 and
 *     value = 2) sorted by key (bytes lexicographically, integers
 *     numerically), duplicates dropped keeping the last, and both key and
 *     value always written.
 */
#ifndef OA_OM_PB_H
#define OA_OM_PB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

#include "ge_ir.pb-c.h"
#include "task.pb-c.h"
#include "base/status.h"
#include "om/om_arena.h"

/* Deepest message nesting accepted (C++ protobuf's default recursion limit). */
#define OA_OM_PB_MAX_DEPTH 100
/* Decoded-size budget: OA_OM_PB_MAX_EXPANSION x (input + OA_OM_PB_EXPANSION_SLACK).
 * Real models decode to about 8 times their wire size. */
#define OA_OM_PB_MAX_EXPANSION 64
#define OA_OM_PB_EXPANSION_SLACK ((size_t)1 << 20)
/* Largest message C++ protobuf parses or writes. */
#define OA_OM_PB_MAX_SIZE ((size_t)INT32_MAX)

/* True for the synthetic map-entry messages of om/proto (see ge_ir.proto). */
bool oa_om_pb_is_map_entry(const ProtobufCMessageDescriptor *d);

/*
 * Checks data[len] against descriptor d (rules above) and unpacks it into
 * arena a. On failure returns `fail` after one OA_FAIL naming `what` and the
 * byte offset of the defect, and *out is NULL. The message and everything it
 * points to live in the arena; nothing refers back to data.
 */
oa_status oa_om_pb_decode(const ProtobufCMessageDescriptor *d, const uint8_t *data, size_t len, oa_om_arena *a,
                          oa_status fail, const char *what, ProtobufCMessage **out) OA_MUST_CHECK;

/*
 * The wire-format check alone (decode runs it first); used by tests and
 * fuzzers to tell the two layers apart.
 */
oa_status oa_om_pb_check(const ProtobufCMessageDescriptor *d, const uint8_t *data, size_t len, oa_status fail,
                         const char *what) OA_MUST_CHECK;

/*
 * Encodes m with the rules above into a malloc'd buffer (*out, *len; the
 * caller frees *out). Map entry arrays inside m are sorted and de-duplicated
 * in place, which changes no meaning. Fails with OA_E_GE_PARAM when the
 * result would exceed OA_OM_PB_MAX_SIZE and OA_E_GE_MEMORY_ALLOCATION when
 * out of memory.
 */
oa_status oa_om_pb_encode(ProtobufCMessage *m, uint8_t **out, size_t *len) OA_MUST_CHECK;

/* True when s[0..n) is strict UTF-8 (what C++ protobuf demands of proto3 strings). */
bool oa_om_utf8_valid(const uint8_t *s, size_t n);

/* ---- small accessors for ge.proto attribute maps --------------------- */

/*
 * The value stored under key in an attribute map (the last entry with that
 * key wins, as in C++), or NULL. key is compared as bytes of length klen.
 */
const Ge__Proto__AttrDef *oa_om_attr_find(Ge__Proto__AttrMapEntry *const *attr, size_t n, const char *key,
                                          size_t klen);

/* oa_om_attr_find() with a NUL-terminated key. */
const Ge__Proto__AttrDef *oa_om_attr_get(Ge__Proto__AttrMapEntry *const *attr, size_t n, const char *key);

#endif /* OA_OM_PB_H */

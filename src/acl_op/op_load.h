/*
 * Getting single-op models into the cache: .om parsing (CANN's
 * OpModelParser rules, op_parse.c) and aclopSetModelDir's directory walk.
 */
#ifndef OA_ACL_OP_OP_LOAD_H
#define OA_ACL_OP_OP_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "acl_op/op_exec.h"
#include "acl_op/op_model.h"
#include "base/status.h"

/*
 * Parses a single-op model image (not kept: the model holds copies).
 * Errors: OA_E_PARSE_MODEL (image not longer than the 256-byte header, or
 * a header length that disagrees with the size; bad shape ranges),
 * OA_E_DESERIALIZE_MODEL (container or ModelDef the reader refuses),
 * OA_E_MODEL_MISSING_ATTR (no op type / input / output tensor lists),
 * OA_E_OP_UNSUPPORTED_DYNAMIC (support_dynamicshape false, build mode 0).
 * [out] *out: one reference.
 */
oa_status oa_opmodel_parse(const void *data, size_t size, const char *name, oa_opmodel **out) OA_MUST_CHECK;

/* Whole file into a malloc'd buffer; OA_E_READ_MODEL when unreadable, empty or over 2 GiB. */
oa_status oa_opmodel_read_file(const char *path, void **data, size_t *size) OA_MUST_CHECK;

/* CANN's OmFileFilterFn: the last ".om" of the name ends it ("x.om", ".om"; not "x.om.bak", "om"). */
bool oa_opmodel_is_om_name(const char *name);

/*
 * aclopSetModelDir's work on a resolved directory: lists regular files
 * named *.om up to 3 directory levels deep (symbolic links are not
 * followed), reads them all (a read failure fails the call with
 * OA_E_READ_MODEL), skips the ones that do not parse (warning), and
 * registers the others as static models. *loaded: models registered.
 */
oa_status oa_opmodel_load_dir(const char *dir, size_t *loaded) OA_MUST_CHECK;

/*
 * Writes the single-op model of spec (op_write.c): to the file path (written
 * atomically), or, with path NULL, to a malloc'd image (*mem, *mem_len).
 * soc_version / atc_cmdline become model attrs (NULL: none). Errors: those
 * of oa_opgraph_build (op type, counts, shapes, inference) and of the .om
 * writer (OA_E_WRITE_FILE, ...). Calls no ACL-layer function (atc links it).
 */
oa_status oa_opmodel_write(const oa_opspec *spec, const char *soc_version, const char *atc_cmdline,
                           const char *path, uint8_t **mem, size_t *mem_len) OA_MUST_CHECK;

#endif /* OA_ACL_OP_OP_LOAD_H */

/*
 * A re-statement, in C, of what Netron's DaVinci OM reader (source/om.js,
 * lutzroeder/netron 38591e39) needs from a file, after docs/om_format.md
 * "Netron". Used by tests to check that the files we write open in Netron:
 *   1. >= 256 bytes, "IMOD" magic;
 *   2. the first table, read at headsize first as a 32-bit table and then as
 *      a 64-bit one (an entry with type >= 32, a repeated type or
 *      offset + size >= file length rejects a reading), holds MODEL_DEF; a
 *      64-bit table that the 32-bit reading accepts (num == 1) is misread;
 *   3. partition types 0-4, 6-12 and 20-24 (5 is parsed as a device list and
 *      is refused here);
 *   4. every partition lies where headsize + table size + mem_offset says;
 *   5. MODEL_DEF decodes;
 *   6. in every graph (and graph-valued attribute): TensorDescriptor dtypes
 *      < 32, AttrDef.dt < 32, no td / list_list_float attributes, a Const's
 *      `value` is a tensor, and the value of each "<op>:<index>" has one
 *      type: the producer's output_desc and every consumer's input_desc (or
 *      the Const weight's desc) agree in dtype and in dims or element count.
 */
#ifndef OA_TESTS_NETRON_CHECK_H
#define OA_TESTS_NETRON_CHECK_H

#include <stddef.h>
#include <stdint.h>

/* 0 when Netron would open the image; otherwise -1 with the reason in msg. */
int netron_check(const uint8_t *img, size_t len, char *msg, size_t cap);

#endif /* OA_TESTS_NETRON_CHECK_H */

/*
 * A reader of operator dump files written independently of the writer
 * (src/dump/dump_write.c uses protobuf-c; this decodes the protobuf wire
 * format by hand from the layout in docs/dump.md): the 8-byte length, the
 * toolkit.dump.DumpData fields the tests check, then the tensor bytes.
 */
#ifndef OA_TESTS_DUMP_READER_H
#define OA_TESTS_DUMP_READER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DR_MAX_TENSORS 16
#define DR_MAX_DIMS 8

typedef struct dr_tensor {
    uint32_t data_type; /* the dump enum (FLOAT = 1) */
    uint32_t format;
    uint64_t dims[DR_MAX_DIMS];
    int rank;
    uint64_t size;
    char orig_name[128];
    const uint8_t *bytes; /* into the file image */
} dr_tensor;

typedef struct dr_file {
    uint8_t *image;
    size_t image_size;
    char version[16];
    uint64_t dump_time;
    char op_name[256];
    char attr_name[64];
    char attr_value[512];
    dr_tensor in[DR_MAX_TENSORS];
    int n_in;
    dr_tensor out[DR_MAX_TENSORS];
    int n_out;
} dr_file;

static bool dr_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
    *v = 0;
    for (int shift = 0; shift < 64 && *p < end; shift += 7) {
        const uint8_t b = *(*p)++;
        *v |= (uint64_t)(b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
            return true;
        }
    }
    return false;
}

/* Next field of [*p, end): number, wire type, varint value or (for wire type 2) the bytes. */
static bool dr_field(const uint8_t **p, const uint8_t *end, uint32_t *num, uint32_t *wt, uint64_t *v,
                     const uint8_t **s, size_t *n)
{
    uint64_t key;
    if (!dr_varint(p, end, &key)) {
        return false;
    }
    *num = (uint32_t)(key >> 3);
    *wt = (uint32_t)(key & 7);
    if (*wt == 0) {
        return dr_varint(p, end, v);
    }
    if (*wt == 2) {
        uint64_t len;
        if (!dr_varint(p, end, &len) || len > (uint64_t)(end - *p)) {
            return false;
        }
        *s = *p;
        *n = (size_t)len;
        *p += len;
        return true;
    }
    if (*wt == 1 && end - *p >= 8) {
        memcpy(v, *p, 8);
        *p += 8;
        return true;
    }
    if (*wt == 5 && end - *p >= 4) {
        uint32_t w;
        memcpy(&w, *p, 4);
        *v = w;
        *p += 4;
        return true;
    }
    return false;
}

static void dr_str(char *dst, size_t cap, const uint8_t *s, size_t n)
{
    const size_t k = n < cap - 1 ? n : cap - 1;
    memcpy(dst, s, k);
    dst[k] = '\0';
}

/* The string fields 1 and 2 of the sub-message [p, p + n) into a and b (b NULL: field 2 is skipped). */
static bool dr_str_fields(const uint8_t *p, size_t n, char *a, size_t cap_a, char *b, size_t cap_b)
{
    const uint8_t *end = p + n;
    while (p < end) {
        uint32_t num, wt;
        uint64_t v;
        const uint8_t *s = NULL;
        size_t len = 0;
        if (!dr_field(&p, end, &num, &wt, &v, &s, &len)) {
            return false;
        }
        if (num == 1 && wt == 2) {
            dr_str(a, cap_a, s, len);
        } else if (num == 2 && wt == 2 && b != NULL) {
            dr_str(b, cap_b, s, len);
        }
    }
    return true;
}

static bool dr_shape(dr_tensor *t, const uint8_t *p, size_t n)
{
    const uint8_t *end = p + n;
    while (p < end) {
        uint32_t num, wt;
        uint64_t v = 0;
        const uint8_t *s = NULL;
        size_t len = 0;
        if (!dr_field(&p, end, &num, &wt, &v, &s, &len)) {
            return false;
        }
        if (num != 1) {
            continue;
        }
        if (wt == 2) { /* packed */
            const uint8_t *q = s;
            while (q < s + len) {
                if (t->rank >= DR_MAX_DIMS || !dr_varint(&q, s + len, &t->dims[t->rank++])) {
                    return false;
                }
            }
        } else if (t->rank < DR_MAX_DIMS) {
            t->dims[t->rank++] = v;
        }
    }
    return true;
}

/* is_out: OpOutput numbering (size 6, original_op 4), else OpInput (size 5). */
static bool dr_tensor_msg(dr_tensor *t, const uint8_t *p, size_t n, bool is_out)
{
    memset(t, 0, sizeof(*t));
    const uint8_t *end = p + n;
    while (p < end) {
        uint32_t num, wt;
        uint64_t v = 0;
        const uint8_t *s = NULL;
        size_t len = 0;
        if (!dr_field(&p, end, &num, &wt, &v, &s, &len)) {
            return false;
        }
        if (num == 1 && wt == 0) {
            t->data_type = (uint32_t)v;
        } else if (num == 2 && wt == 0) {
            t->format = (uint32_t)v;
        } else if (num == 3 && wt == 2) {
            if (!dr_shape(t, s, len)) {
                return false;
            }
        } else if (num == (is_out ? 6u : 5u) && wt == 0) {
            t->size = v;
        } else if (is_out && num == 4 && wt == 2) { /* OriginalOp: name 1 */
            if (!dr_str_fields(s, len, t->orig_name, sizeof t->orig_name, NULL, 0)) {
                return false;
            }
        }
    }
    return true;
}

static void dr_free(dr_file *f)
{
    free(f->image);
    f->image = NULL;
}

/* Reads path; false with why filled when it is not a well-formed dump file. */
static bool dr_read(const char *path, dr_file *f, char *why, size_t cap)
{
    memset(f, 0, sizeof(*f));
    FILE *fp = fopen(path, "rb");
    if (fp == NULL) {
        snprintf(why, cap, "cannot open");
        return false;
    }
    fseek(fp, 0, SEEK_END);
    const long sz = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    f->image = malloc(sz > 0 ? (size_t)sz : 1);
    f->image_size = sz > 0 ? (size_t)sz : 0;
    const bool rd = f->image != NULL && fread(f->image, 1, f->image_size, fp) == f->image_size;
    fclose(fp);
    if (!rd || f->image_size < 8) {
        snprintf(why, cap, "short file");
        return false;
    }
    uint64_t len = 0;
    for (int b = 7; b >= 0; --b) {
        len = (len << 8) | f->image[b];
    }
    if (len == 0 || len > f->image_size - 8) {
        snprintf(why, cap, "message length %llu of a %zu-byte file", (unsigned long long)len, f->image_size);
        return false;
    }
    const uint8_t *p = f->image + 8, *end = p + len;
    while (p < end) {
        uint32_t num, wt;
        uint64_t v = 0;
        const uint8_t *s = NULL;
        size_t n = 0;
        if (!dr_field(&p, end, &num, &wt, &v, &s, &n)) {
            snprintf(why, cap, "bad protobuf");
            return false;
        }
        if (num == 1 && wt == 2) {
            dr_str(f->version, sizeof f->version, s, n);
        } else if (num == 2 && wt == 0) {
            f->dump_time = v;
        } else if (num == 3 && wt == 2 && f->n_out < DR_MAX_TENSORS) {
            if (!dr_tensor_msg(&f->out[f->n_out++], s, n, true)) {
                snprintf(why, cap, "bad output message");
                return false;
            }
        } else if (num == 4 && wt == 2 && f->n_in < DR_MAX_TENSORS) {
            if (!dr_tensor_msg(&f->in[f->n_in++], s, n, false)) {
                snprintf(why, cap, "bad input message");
                return false;
            }
        } else if (num == 6 && wt == 2) {
            dr_str(f->op_name, sizeof f->op_name, s, n);
        } else if (num == 7 && wt == 2) { /* OpAttr: name 1, value 2 */
            if (!dr_str_fields(s, n, f->attr_name, sizeof f->attr_name, f->attr_value, sizeof f->attr_value)) {
                return false;
            }
        }
    }
    /* the tensor bytes: inputs then outputs, exactly their sizes */
    size_t off = 8 + (size_t)len;
    for (int i = 0; i < f->n_in + f->n_out; ++i) {
        dr_tensor *t = i < f->n_in ? &f->in[i] : &f->out[i - f->n_in];
        if (t->size > f->image_size - off) {
            snprintf(why, cap, "tensor %d of %llu bytes runs past the end", i, (unsigned long long)t->size);
            return false;
        }
        t->bytes = f->image + off;
        off += (size_t)t->size;
    }
    if (off != f->image_size) {
        snprintf(why, cap, "file has %zu bytes, header and tensors account for %zu", f->image_size, off);
        return false;
    }
    return true;
}

#endif /* OA_TESTS_DUMP_READER_H */

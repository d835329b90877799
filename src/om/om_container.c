/*
 * om_container: the .om header and partition tables (om_format.h sections
 * 1-6): a bounds-checked parser over a borrowed image, and the writer that
 * produces the same layout, in memory or atomically on disk.
 */
#define OA_LOG_MODULE "GE"
#include "om/om_format.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"

/* ---- little-endian helpers ------------------------------------------ */

static uint32_t rd_u32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t rd_u64(const uint8_t *p)
{
    return (uint64_t)rd_u32(p) | (uint64_t)rd_u32(p + 4) << 32;
}

static void wr_u32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void wr_u64(uint8_t *p, uint64_t v)
{
    wr_u32(p, (uint32_t)v);
    wr_u32(p + 4, (uint32_t)(v >> 32));
}

/* ---- header ---------------------------------------------------------- */

void oa_om_header_init(oa_om_header *h)
{
    memset(h, 0, sizeof(*h));
    h->magic = OA_OM_MAGIC;
    h->headsize = OA_OM_HEADER_SIZE;
    h->version = OA_OM_MODEL_VERSION;
    h->model_num = 1;
}

void oa_om_header_decode(const uint8_t raw[OA_OM_HEADER_SIZE], oa_om_header *h)
{
    h->magic = rd_u32(raw + 0);
    h->headsize = rd_u32(raw + 4);
    h->version = rd_u32(raw + 8);
    memcpy(h->checksum, raw + 12, 64);
    h->length = rd_u32(raw + 76);
    h->is_encrypt = raw[80];
    h->is_checksum = raw[81];
    h->modeltype = raw[82];
    h->genmode = raw[83];
    memcpy(h->name, raw + 84, OA_OM_NAME_LEN);
    h->ops = rd_u32(raw + 116);
    memcpy(h->userdefineinfo, raw + 120, 32);
    h->om_ir_version = rd_u32(raw + 152);
    h->model_num = rd_u32(raw + 156);
    memcpy(h->platform_version, raw + 160, OA_OM_PLATFORM_VERSION_LEN);
    h->platform_type = raw[180];
    memcpy(h->padd, raw + 181, 3);
    h->model_length = rd_u64(raw + 184);
    h->need_check_os_cpu_info = raw[192];
    h->is_unknow_model = raw[193];
    memcpy(h->reserved, raw + 194, 62);
}

void oa_om_header_encode(const oa_om_header *h, uint8_t raw[OA_OM_HEADER_SIZE])
{
    wr_u32(raw + 0, h->magic);
    wr_u32(raw + 4, h->headsize);
    wr_u32(raw + 8, h->version);
    memcpy(raw + 12, h->checksum, 64);
    wr_u32(raw + 76, h->length);
    raw[80] = h->is_encrypt;
    raw[81] = h->is_checksum;
    raw[82] = h->modeltype;
    raw[83] = h->genmode;
    memcpy(raw + 84, h->name, OA_OM_NAME_LEN);
    wr_u32(raw + 116, h->ops);
    memcpy(raw + 120, h->userdefineinfo, 32);
    wr_u32(raw + 152, h->om_ir_version);
    wr_u32(raw + 156, h->model_num);
    memcpy(raw + 160, h->platform_version, OA_OM_PLATFORM_VERSION_LEN);
    raw[180] = h->platform_type;
    memcpy(raw + 181, h->padd, 3);
    wr_u64(raw + 184, h->model_length);
    raw[192] = h->need_check_os_cpu_info;
    raw[193] = h->is_unknow_model;
    memcpy(raw + 194, h->reserved, 62);
}

bool oa_om_header_is_dynamic(const oa_om_header *h)
{
    return h->version >= OA_OM_MODEL_VERSION && (h->model_num > 1 || h->is_unknow_model == 1);
}

const char *oa_om_part_type_name(uint32_t type)
{
    static const char *const names[] = {
        "MODEL_DEF",        "WEIGHTS_DATA",      "TASK_INFO",     "TBE_KERNELS", "CUST_AICPU_KERNELS",
        "SO_BINS",          "FLOW_MODEL",        "FLOW_SUBMODEL", "MODEL_INOUT_INFO",
        "STATIC_TASK_DESC", "DYNAMIC_TASK_DESC", "TASK_PARAM",    "TILING_DATA",
    };
    static const char *const high[] = {
        "PRE_MODEL_DESC",    "PRE_MODEL_SQE",         "PRE_KERNEL_ARGS", "PRE_MODEL_DESC_EXTEND",
        "BUNDLE_MODEL_INFO", "BUNDLE_MODEL_VAR_INFO", "CUSTOM_OPS",
    };
    if (type < OA_ARRAY_SIZE(names)) {
        return names[type];
    }
    if (type >= OA_OM_PART_PRE_MODEL_DESC && type - OA_OM_PART_PRE_MODEL_DESC < OA_ARRAY_SIZE(high)) {
        return high[type - OA_OM_PART_PRE_MODEL_DESC];
    }
    return "UNKNOWN";
}

/* ---- reader ---------------------------------------------------------- */

void oa_om_container_deinit(oa_om_container *c)
{
    if (c == NULL) {
        return;
    }
    if (c->tables != NULL) {
        for (uint32_t i = 0; i < c->num_tables; ++i) {
            free(c->tables[i].parts);
        }
        free(c->tables);
    }
    memset(c, 0, sizeof(*c));
}

static bool count_valid(uint32_t num, bool flow)
{
    if (flow) {
        return num >= 1 && num <= OA_OM_MAX_FLOW_PARTITIONS;
    }
    return num >= 1 && num <= OA_OM_MAX_PARTITIONS;
}

/*
 * Parses the table that starts *pos bytes into the data (the bytes after the
 * header) and advances *pos past its partitions.
 */
static oa_status parse_table(oa_om_container *c, const uint8_t *data, uint64_t len, uint32_t index, uint64_t *pos,
                             bool tiny, bool flow)
{
    oa_om_table *t = &c->tables[index];
    uint64_t at = *pos;
    const uint64_t head = tiny ? OA_OM_TINY_HEAD_SIZE : OA_OM_TABLE_HEAD_SIZE;
    const uint64_t entry = tiny ? OA_OM_TINY_ENTRY_SIZE : OA_OM_TABLE_ENTRY_SIZE;

    /* GE asks for more than the 8-byte table head before reading num. */
    if (at > len || len - at <= OA_OM_TABLE_HEAD_SIZE) {
        return OA_FAIL(OA_E_GE_MODEL_DATA_SIZE,
                       "[Check][Table] table %u at data offset %llu needs more than %u bytes, %llu left", index,
                       (unsigned long long)at, OA_OM_TABLE_HEAD_SIZE, (unsigned long long)(at > len ? 0 : len - at));
    }
    const uint32_t num = rd_u32(data + at);
    if (!count_valid(num, flow)) {
        return OA_FAIL(OA_E_GE_PARAM, "[Check][Table] table %u holds %u partitions, the range is 1..%u", index, num,
                       flow ? OA_OM_MAX_FLOW_PARTITIONS : OA_OM_MAX_PARTITIONS);
    }
    const uint64_t table_size = head + entry * num; /* num <= 4096: no overflow */
    if (len - at <= table_size) {
        return OA_FAIL(OA_E_GE_MODEL_DATA_SIZE,
                       "[Check][Table] table %u (%u partitions, %llu bytes) at data offset %llu leaves no partition "
                       "data in %llu bytes",
                       index, num, (unsigned long long)table_size, (unsigned long long)at, (unsigned long long)len);
    }
    t->file_offset = OA_OM_HEADER_SIZE + at;
    t->tiny = tiny;
    t->parts = calloc(num, sizeof(*t->parts));
    if (t->parts == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Alloc][Table] %u partition records", num);
    }
    t->num = num;
    const uint8_t *e = data + at + head;
    uint64_t cur = at + table_size;
    t->data_offset = OA_OM_HEADER_SIZE + cur;
    uint64_t expect_offset = 0;
    for (uint32_t i = 0; i < num; ++i, e += entry) {
        oa_om_partition *p = &t->parts[i];
        if (tiny) {
            p->type = rd_u32(e);
            p->mem_offset = rd_u32(e + 4);
            p->size = rd_u32(e + 8);
        } else {
            p->type = rd_u32(e);
            p->mem_offset = rd_u64(e + 8);
            p->size = rd_u64(e + 16);
        }
        if (p->size > len - cur) {
            return OA_FAIL(OA_E_GE_MODEL_DATA_SIZE,
                           "[Check][Partition] table %u partition %u (%s) of %llu bytes at data offset %llu ends "
                           "past the data (%llu bytes)",
                           index, i, oa_om_part_type_name(p->type), (unsigned long long)p->size,
                           (unsigned long long)cur, (unsigned long long)len);
        }
        if (p->mem_offset != expect_offset) {
            return OA_FAIL(OA_E_GE_PARAM,
                           "[Check][Partition] table %u partition %u (%s) has mem_offset %llu, the partitions before "
                           "it end at %llu",
                           index, i, oa_om_part_type_name(p->type), (unsigned long long)p->mem_offset,
                           (unsigned long long)expect_offset);
        }
        for (uint32_t j = 0; j < i; ++j) {
            if (t->parts[j].type == p->type && !(flow && p->type == OA_OM_PART_FLOW_SUBMODEL)) {
                return OA_FAIL(OA_E_GE_PARAM, "[Check][Partition] table %u holds partition type %u (%s) twice", index,
                               p->type, oa_om_part_type_name(p->type));
            }
        }
        p->data = data + cur;
        cur += p->size;
        expect_offset += p->size;
    }
    *pos = cur;
    return OA_OK;
}

oa_status oa_om_container_parse(const void *image, size_t size, oa_om_container *c)
{
    memset(c, 0, sizeof(*c));
    if (image == NULL) {
        return OA_FAIL(OA_E_GE_MODEL_ADDR, "[Check][Param] model data is NULL");
    }
    const uint8_t *raw = image;
    if (size < OA_OM_HEADER_SIZE) {
        return OA_FAIL(OA_E_GE_PARAM, "[Check][Header] invalid om: %zu bytes is smaller than the %u-byte header", size,
                       OA_OM_HEADER_SIZE);
    }
    oa_om_header h;
    oa_om_header_decode(raw, &h);
    const uint64_t len = h.model_length != 0 ? h.model_length : h.length;
    if (h.magic != OA_OM_MAGIC) {
        return OA_FAIL(OA_E_GE_PARAM, "[Check][Header] invalid om: magic 0x%08X is not 0x%08X (\"IMOD\")", h.magic,
                       OA_OM_MAGIC);
    }
    if (len != (uint64_t)size - OA_OM_HEADER_SIZE) {
        return OA_FAIL(OA_E_GE_PARAM,
                       "[Check][Header] invalid om: %s %llu + header %u != model data size %zu",
                       h.model_length != 0 ? "model_length" : "length", (unsigned long long)len, OA_OM_HEADER_SIZE,
                       size);
    }
    if (h.headsize != OA_OM_HEADER_SIZE) {
        /* GE ignores headsize; Netron seeks the table there and misreads. */
        OA_LOGW("om header headsize is %u, not %u; the file will not open in Netron", h.headsize, OA_OM_HEADER_SIZE);
    }
    if (h.modeltype == OA_OM_MODEL_BUNDLE) {
        return OA_FAIL(OA_E_GE_FAILURE, "[Check][Header] bundle models cannot be loaded through this interface");
    }
    const bool dynamic = oa_om_header_is_dynamic(&h);
    const bool flow = h.modeltype == OA_OM_MODEL_FLOW;
    const bool tiny = !flow && h.model_length == 0;
    const uint32_t ntables = dynamic ? h.model_num : 1;
    if (ntables == 0) {
        return OA_FAIL(OA_E_GE_PARAM, "[Check][Header] dynamic model declares model_num 0");
    }
    /* Each table needs more than 8 bytes: bound model_num by the data. */
    if (ntables > len / (OA_OM_TABLE_HEAD_SIZE + 1)) {
        return OA_FAIL(OA_E_GE_MODEL_DATA_SIZE, "[Check][Header] model_num %u cannot fit in %llu bytes of data",
                       ntables, (unsigned long long)len);
    }
    c->tables = calloc(ntables, sizeof(*c->tables));
    if (c->tables == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Alloc][Container] %u tables", ntables);
    }
    c->num_tables = ntables;
    c->header = h;
    c->image = raw;
    c->image_size = size;
    c->dynamic = dynamic;

    uint64_t pos = 0;
    oa_status st = OA_OK;
    for (uint32_t i = 0; i < ntables && st == OA_OK; ++i) {
        st = parse_table(c, raw + OA_OM_HEADER_SIZE, len, i, &pos, tiny, flow);
    }
    if (st == OA_OK && pos != len) {
        st = OA_FAIL(OA_E_GE_FAILURE,
                     "[Check][Container] %u table(s) and their partitions end at data offset %llu, the data is %llu "
                     "bytes",
                     ntables, (unsigned long long)pos, (unsigned long long)len);
    }
    for (uint32_t i = 0; i < ntables && st == OA_OK; ++i) {
        if (oa_om_table_find(&c->tables[i], OA_OM_PART_MODEL_DEF) == NULL) {
            st = OA_FAIL(OA_E_GE_LOAD_MODEL_PARTITION, "[Check][Partition] table %u has no MODEL_DEF partition", i);
        }
    }
    if (st != OA_OK) {
        oa_om_container_deinit(c);
    }
    return st;
}

const oa_om_partition *oa_om_table_find(const oa_om_table *t, uint32_t type)
{
    if (t == NULL) {
        return NULL;
    }
    for (uint32_t i = 0; i < t->num; ++i) {
        if (t->parts[i].type == type) {
            return &t->parts[i];
        }
    }
    return NULL;
}

oa_status oa_om_container_check_executable(const oa_om_container *c)
{
    if (!c->dynamic && c->num_tables == 1 && c->tables[0].num == 1) {
        return OA_FAIL(OA_E_GE_PARAM,
                       "[Check][Model] the om holds only a MODEL_DEF partition and cannot be executed; "
                       "please use an executable om model");
    }
    return OA_OK;
}

oa_status oa_om_status_for_op_model(oa_status st)
{
    switch (st) {
    case OA_OK:
        return OA_OK;
    case OA_E_GE_MODEL_PATH:
        return OA_E_READ_MODEL;
    case OA_E_GE_PARAM:
    case OA_E_GE_MODEL_DATA_SIZE:
    case OA_E_GE_FAILURE:
    case OA_E_GE_MODEL_ADDR:
    case OA_E_GE_LOAD_MODEL_PARTITION:
    case OA_E_GE_LOAD_WEIGHT_PARTITION:
    case OA_E_GE_LOAD_TASK_PARTITION:
        return OA_E_DESERIALIZE_MODEL;
    default:
        return st;
    }
}

/* ---- writer ---------------------------------------------------------- */

static bool may_exceed_4g(uint32_t type)
{
    return type == OA_OM_PART_WEIGHTS_DATA || type == OA_OM_PART_TBE_KERNELS ||
           type == OA_OM_PART_CUST_AICPU_KERNELS;
}

static oa_status check_request(const oa_om_header *h, const oa_om_table_src *tables, uint32_t num_tables,
                               uint64_t *total)
{
    if (h == NULL || tables == NULL || num_tables == 0) {
        return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] nothing to write: header %p, %u table(s)", (const void *)h,
                       num_tables);
    }
    if (memchr(h->name, '\0', OA_OM_NAME_LEN) == NULL) {
        return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] model name must be at most %u bytes", OA_OM_NAME_LEN - 1);
    }
    if (memchr(h->platform_version, '\0', OA_OM_PLATFORM_VERSION_LEN) == NULL) {
        return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] platform version must be at most %u characters",
                       OA_OM_PLATFORM_VERSION_LEN - 1);
    }
    if (h->modeltype == OA_OM_MODEL_BUNDLE) {
        return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] bundle models are not written by this writer");
    }
    const bool dynamic = oa_om_header_is_dynamic(h);
    if (dynamic ? h->model_num != num_tables : num_tables != 1) {
        return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] %s header (version 0x%X, model_num %u, is_unknow_model %u) "
                                      "cannot describe %u table(s)",
                       dynamic ? "dynamic" : "static", h->version, h->model_num, h->is_unknow_model, num_tables);
    }
    const bool flow = h->modeltype == OA_OM_MODEL_FLOW;
    uint64_t sum = 0;
    for (uint32_t t = 0; t < num_tables; ++t) {
        const oa_om_table_src *ts = &tables[t];
        if (!count_valid(ts->num, flow) || ts->parts == NULL) {
            return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] table %u holds %u partitions, the range is 1..%u", t, ts->num,
                           flow ? OA_OM_MAX_FLOW_PARTITIONS : OA_OM_MAX_PARTITIONS);
        }
        bool has_def = false;
        sum += OA_OM_TABLE_HEAD_SIZE + (uint64_t)OA_OM_TABLE_ENTRY_SIZE * ts->num;
        for (uint32_t i = 0; i < ts->num; ++i) {
            const oa_om_part_src *p = &ts->parts[i];
            if (p->size == 0 || p->data == NULL) {
                return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] table %u partition %u (%s) is empty", t, i,
                               oa_om_part_type_name(p->type));
            }
            if (p->size > UINT32_MAX && !may_exceed_4g(p->type)) {
                return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] table %u partition %u (%s) of %llu bytes exceeds 4 GiB", t,
                               i, oa_om_part_type_name(p->type), (unsigned long long)p->size);
            }
            for (uint32_t j = 0; j < i; ++j) {
                if (ts->parts[j].type == p->type && !(flow && p->type == OA_OM_PART_FLOW_SUBMODEL)) {
                    return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] table %u holds partition type %u (%s) twice", t, p->type,
                                   oa_om_part_type_name(p->type));
                }
            }
            has_def = has_def || p->type == OA_OM_PART_MODEL_DEF;
            if (__builtin_add_overflow(sum, p->size, &sum)) {
                return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] total size overflows");
            }
        }
        if (!has_def) {
            return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] table %u has no MODEL_DEF partition", t);
        }
    }
    if (sum > UINT64_MAX - OA_OM_HEADER_SIZE) {
        return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] total size overflows");
    }
    *total = sum;
    return OA_OK;
}

oa_status oa_om_container_size(const oa_om_header *h, const oa_om_table_src *tables, uint32_t num_tables,
                               uint64_t *size)
{
    uint64_t data_len = 0;
    oa_status st = check_request(h, tables, num_tables, &data_len);
    if (st == OA_OK) {
        *size = data_len + OA_OM_HEADER_SIZE;
    }
    return st;
}

/* Sink for the serializer: either a memory buffer or a file descriptor. */
typedef struct sink {
    uint8_t *buf;
    size_t pos;
    int fd;
    const char *path;
} sink;

static oa_status sink_put(sink *s, const void *data, uint64_t n)
{
    if (s->buf != NULL) {
        memcpy(s->buf + s->pos, data, (size_t)n);
        s->pos += (size_t)n;
        return OA_OK;
    }
    const uint8_t *p = data;
    while (n > 0) {
        size_t chunk = n > (1u << 30) ? (1u << 30) : (size_t)n;
        ssize_t w = write(s->fd, p, chunk);
        if (w < 0 && errno == EINTR) {
            continue;
        }
        if (w <= 0) {
            return OA_FAIL(OA_E_WRITE_FILE, "[Save][Om] write to %s failed: %s", s->path,
                           w < 0 ? strerror(errno) : "no progress");
        }
        p += w;
        n -= (uint64_t)w;
    }
    return OA_OK;
}

static oa_status serialize(const oa_om_header *h, const oa_om_table_src *tables, uint32_t num_tables,
                           uint64_t data_len, sink *s)
{
    oa_om_header hh = *h;
    hh.magic = OA_OM_MAGIC;
    hh.headsize = OA_OM_HEADER_SIZE;
    hh.model_length = data_len;
    uint8_t raw[OA_OM_HEADER_SIZE];
    oa_om_header_encode(&hh, raw);
    oa_status st = sink_put(s, raw, sizeof(raw));
    for (uint32_t t = 0; t < num_tables && st == OA_OK; ++t) {
        const oa_om_table_src *ts = &tables[t];
        uint8_t head[OA_OM_TABLE_HEAD_SIZE] = {0};
        wr_u32(head, ts->num);
        st = sink_put(s, head, sizeof(head));
        uint64_t off = 0;
        for (uint32_t i = 0; i < ts->num && st == OA_OK; ++i) {
            uint8_t e[OA_OM_TABLE_ENTRY_SIZE] = {0};
            wr_u32(e, ts->parts[i].type);
            wr_u64(e + 8, off);
            wr_u64(e + 16, ts->parts[i].size);
            off += ts->parts[i].size;
            st = sink_put(s, e, sizeof(e));
        }
        for (uint32_t i = 0; i < ts->num && st == OA_OK; ++i) {
            st = sink_put(s, ts->parts[i].data, ts->parts[i].size);
        }
    }
    return st;
}

oa_status oa_om_container_write_memory(const oa_om_header *h, const oa_om_table_src *tables, uint32_t num_tables,
                                       uint8_t **out, size_t *out_size)
{
    *out = NULL;
    *out_size = 0;
    uint64_t data_len = 0;
    oa_status st = check_request(h, tables, num_tables, &data_len);
    if (st != OA_OK) {
        return st;
    }
    const uint64_t total = data_len + OA_OM_HEADER_SIZE;
    if (total > SIZE_MAX) {
        return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] %llu bytes do not fit in memory", (unsigned long long)total);
    }
    sink s = {.buf = malloc((size_t)total), .fd = -1};
    if (s.buf == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Save][Om] %llu bytes", (unsigned long long)total);
    }
    st = serialize(h, tables, num_tables, data_len, &s);
    if (st != OA_OK) {
        free(s.buf);
        return st;
    }
    *out = s.buf;
    *out_size = (size_t)total;
    return OA_OK;
}

oa_status oa_om_container_write_file(const char *path, const oa_om_header *h, const oa_om_table_src *tables,
                                     uint32_t num_tables)
{
    if (path == NULL || path[0] == '\0') {
        return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] output path is empty");
    }
    uint64_t data_len = 0;
    oa_status st = check_request(h, tables, num_tables, &data_len);
    if (st != OA_OK) {
        return st;
    }
    size_t plen = strlen(path);
    size_t tlen;
    if (!oa_add_size(plen, sizeof(".tmp.XXXXXX"), &tlen)) {
        return OA_FAIL(OA_E_GE_PARAM, "[Save][Om] output path too long");
    }
    char *tmp = malloc(tlen);
    if (tmp == NULL) {
        return OA_FAIL(OA_E_GE_MEMORY_ALLOCATION, "[Save][Om] temporary path");
    }
    memcpy(tmp, path, plen);
    memcpy(tmp + plen, ".tmp.XXXXXX", sizeof(".tmp.XXXXXX"));
    int fd = mkstemp(tmp);
    if (fd < 0) {
        st = OA_FAIL(OA_E_WRITE_FILE, "[Save][Om] cannot create a temporary file next to %s: %s", path,
                     strerror(errno));
        free(tmp);
        return st;
    }
    sink s = {.buf = NULL, .fd = fd, .path = tmp};
    if (fchmod(fd, S_IRUSR | S_IWUSR) != 0) {
        st = OA_FAIL(OA_E_WRITE_FILE, "[Save][Om] chmod 0600 %s failed: %s", tmp, strerror(errno));
    }
    if (st == OA_OK) {
        st = serialize(h, tables, num_tables, data_len, &s);
    }
    if (st == OA_OK && fsync(fd) != 0) {
        st = OA_FAIL(OA_E_WRITE_FILE, "[Save][Om] fsync %s failed: %s", tmp, strerror(errno));
    }
    if (close(fd) != 0 && st == OA_OK) {
        st = OA_FAIL(OA_E_WRITE_FILE, "[Save][Om] close %s failed: %s", tmp, strerror(errno));
    }
    if (st == OA_OK && rename(tmp, path) != 0) {
        st = OA_FAIL(OA_E_WRITE_FILE, "[Save][Om] rename %s to %s failed: %s", tmp, path, strerror(errno));
    }
    if (st != OA_OK) {
        (void)unlink(tmp);
    }
    free(tmp);
    return st;
}

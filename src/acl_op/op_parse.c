/*
 * Single-op model files: parsing (what CANN's OpModelParser accepts) and
 * the model directory walk of aclopSetModelDir (op_load.h).
 *
 * A single-op .om (written by `atc --singleop`, CANN's or ours) is an
 * ordinary .om container whose root ModelDef carries, as model attributes:
 *   ATTR_MODEL_OP_TYPE          the GE op type (string)
 *   ATTR_MODEL_TENSOR_INPUTS    one TensorDef per input (list of tensors)
 *   ATTR_MODEL_TENSOR_OUTPUTS   one TensorDef per output
 *   ATTR_MODEL_<name>           every attribute of the op (other internal
 *                               ones of GE are dropped: _single_op_scene,
 *                               _unregst_oppath, _unregst_attrlist,
 *                               _dynamic_input_index_start/_end)
 *   support_dynamicshape        bool (absent = true)
 *   _build_mode                 int: 0 exact, 1 fuzzy compile
 *   _is_dynamic_model           bool
 * Each TensorDef's descriptor gives dtype, (current) format, shape, shape
 * range, and the attrs storage_format (int), storage_shape (ints),
 * _mem_type (int), is_const (bool) with the constant in attr value.
 */
#include "acl_op/op_load.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/log.h"
#include "base/util.h"
#include "graph/types.h"
#include "om/om_format.h"
#include "om/om_model.h"
#include "om/om_pb.h"

#define ATTR_PREFIX "ATTR_MODEL_"
#define ATTR_OP_TYPE "ATTR_MODEL_OP_TYPE"
#define ATTR_INPUTS "ATTR_MODEL_TENSOR_INPUTS"
#define ATTR_OUTPUTS "ATTR_MODEL_TENSOR_OUTPUTS"
#define OM_DIR_MAX_DEPTH 3

static bool key_is(const ProtobufCBinaryData *k, const char *s)
{
    const size_t n = strlen(s);
    return k->len == n && (n == 0 || memcmp(k->data, s, n) == 0);
}

static const Ge__Proto__AttrDef *attr_of(Ge__Proto__AttrMapEntry *const *attr, size_t n, const char *key)
{
    return oa_om_attr_get(attr, n, key);
}

static bool attr_int(Ge__Proto__AttrMapEntry *const *attr, size_t n, const char *key, int64_t *out)
{
    const Ge__Proto__AttrDef *v = attr_of(attr, n, key);
    if (v == NULL || v->value_case != GE__PROTO__ATTR_DEF__VALUE_I) {
        return false;
    }
    *out = v->i;
    return true;
}

static bool attr_bool(Ge__Proto__AttrMapEntry *const *attr, size_t n, const char *key, bool *out)
{
    const Ge__Proto__AttrDef *v = attr_of(attr, n, key);
    if (v == NULL || v->value_case != GE__PROTO__ATTR_DEF__VALUE_B) {
        return false;
    }
    *out = v->b != 0;
    return true;
}

/* A list attr holding tensors (possibly empty). */
static bool attr_list_tensor(Ge__Proto__AttrMapEntry *const *attr, size_t n, const char *key,
                             Ge__Proto__AttrDef__ListValue **out)
{
    const Ge__Proto__AttrDef *v = attr_of(attr, n, key);
    if (v == NULL || v->value_case != GE__PROTO__ATTR_DEF__VALUE_LIST || v->list == NULL) {
        return false;
    }
    const int vt = (int)v->list->val_type;
    if (vt != GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_TENSOR &&
        !(vt == GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_NONE && v->list->n_s == 0 &&
          v->list->n_i == 0 && v->list->n_f == 0 && v->list->n_b == 0)) {
        return false;
    }
    *out = v->list;
    return true;
}

static aclFormat format_of(const Ge__Proto__TensorDescriptor *td)
{
    int64_t f;
    if (attr_int(td->attr, td->n_attr, "format_for_int", &f)) {
        f &= 0xff;
    } else {
        oa_format of;
        if (td->layout == NULL || !oa_format_from_name(td->layout, &of)) {
            return ACL_FORMAT_UNDEFINED;
        }
        f = (int64_t)of;
    }
    return f == OA_FORMAT_RESERVED ? ACL_FORMAT_UNDEFINED : (aclFormat)f;
}

static aclDataType dtype_of(int proto)
{
    const oa_dtype dt = oa_dtype_from_proto(proto);
    return dt == OA_DT_UNDEFINED ? ACL_DT_UNDEFINED : (aclDataType)dt;
}

/* CANN's ParseGeTensorDesc for one tensor. */
static oa_status parse_desc(const Ge__Proto__TensorDef *t, const char *op_type, const char *what, aclTensorDesc *d)
{
    const Ge__Proto__TensorDescriptor *td = t != NULL ? t->desc : NULL;
    if (td == NULL) {
        return OA_FAIL(OA_E_PARSE_MODEL, "[Parse][Model] %s has no tensor description", what);
    }
    const int64_t *dims = td->shape != NULL ? td->shape->dim : NULL;
    const size_t ndims = td->shape != NULL ? td->shape->n_dim : 0;
    d->data_type = dtype_of((int)td->dtype);
    int64_t sf;
    const bool new_transdata = strcmp(op_type, "TransData") == 0 &&
                               attr_of(td->attr, td->n_attr, "storage_format") != NULL;
    oa_status st;
    if (new_transdata) {
        /* the origin format/shape are the user's, the current ones the storage */
        const Ge__Proto__AttrDef *of = attr_of(td->attr, td->n_attr, "origin_format");
        oa_format f;
        d->format = ACL_FORMAT_UNDEFINED;
        if (of != NULL && of->value_case == GE__PROTO__ATTR_DEF__VALUE_S) {
            char name[64];
            const size_t l = OA_MIN(of->s.len, sizeof(name) - 1);
            memcpy(name, of->s.data, l);
            name[l] = '\0';
            if (oa_format_from_name(name, &f) && f != OA_FORMAT_RESERVED) {
                d->format = (aclFormat)f;
            }
        }
        d->storage_format = format_of(td);
        const Ge__Proto__AttrDef *os = attr_of(td->attr, td->n_attr, "origin_shape");
        if (os != NULL && os->value_case == GE__PROTO__ATTR_DEF__VALUE_LIST && os->list != NULL) {
            st = oa_tensor_desc_set_dims(d, os->list->n_i, os->list->i);
        } else {
            st = oa_tensor_desc_set_dims(d, ndims, dims);
        }
        if (st == OA_OK) {
            st = oa_tensor_desc_set_storage_dims(d, ndims, dims);
        }
    } else {
        d->format = format_of(td);
        d->storage_format = attr_int(td->attr, td->n_attr, "storage_format", &sf) ? (aclFormat)sf
                                                                                  : ACL_FORMAT_UNDEFINED;
        st = oa_tensor_desc_set_dims(d, ndims, dims);
        if (st == OA_OK) {
            const Ge__Proto__AttrDef *ss = attr_of(td->attr, td->n_attr, "storage_shape");
            if (ss != NULL && ss->value_case == GE__PROTO__ATTR_DEF__VALUE_LIST && ss->list != NULL) {
                st = oa_tensor_desc_set_storage_dims(d, ss->list->n_i, ss->list->i);
            } else {
                st = oa_tensor_desc_set_storage_dims(d, 0, NULL);
            }
        }
    }
    if (st != OA_OK) {
        return st;
    }
    const Ge__Proto__AttrDef *sr = attr_of(td->attr, td->n_attr, "shape_range");
    if (sr != NULL && sr->value_case == GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_INT && sr->list_list_int != NULL &&
        sr->list_list_int->n_list_list_i > 0) {
        const size_t n = sr->list_list_int->n_list_list_i;
        d->shape_range = calloc(n, sizeof(d->shape_range[0]));
        if (d->shape_range == NULL) {
            return OA_FAIL(OA_E_NOMEM, "shape range");
        }
        for (size_t i = 0; i < n; ++i) {
            const Ge__Proto__AttrDef__ListListInt__ListInt *p = sr->list_list_int->list_list_i[i];
            if (p == NULL || p->n_list_i != 2) {
                return OA_FAIL(OA_E_PARSE_MODEL, "[Parse][Model] %s: shape range %zu is not a [min, max] pair", what,
                               i);
            }
            d->shape_range[i][0] = p->list_i[0];
            d->shape_range[i][1] = p->list_i[1];
        }
        d->shape_range_count = n;
    }
    int64_t mt;
    if (attr_int(td->attr, td->n_attr, "_mem_type", &mt)) {
        d->mem_type = (aclMemType)mt;
    }
    bool is_const = false;
    if (attr_bool(td->attr, td->n_attr, "is_const", &is_const) && is_const) {
        const Ge__Proto__AttrDef *v = attr_of(td->attr, td->n_attr, "value");
        if (v == NULL || v->value_case != GE__PROTO__ATTR_DEF__VALUE_T || v->t == NULL) {
            return OA_FAIL(OA_E_PARSE_MODEL, "[Get][Tensor]%s is constant but carries no value", what);
        }
        d->is_const = true;
        if (v->t->data.len > 0) {
            d->const_data = malloc(v->t->data.len);
            if (d->const_data == NULL) {
                return OA_FAIL(OA_E_NOMEM, "constant of %s", what);
            }
            memcpy(d->const_data, v->t->data.data, v->t->data.len);
            d->const_data_len = v->t->data.len;
        }
    }
    if (td->name != NULL && td->name[0] != '\0') {
        aclSetTensorDescName(d, td->name);
    }
    return OA_OK;
}

/* Internal attributes of GE that are not the user's (deleted before matching). */
static bool is_dropped_attr(const ProtobufCBinaryData *k)
{
    static const char *const names[] = {
        ATTR_OP_TYPE, ATTR_INPUTS, ATTR_OUTPUTS, ATTR_PREFIX "_unregst_oppath", ATTR_PREFIX "_unregst_attrlist",
        ATTR_PREFIX "_dynamic_input_index_start", ATTR_PREFIX "_dynamic_input_index_end",
        ATTR_PREFIX "_single_op_scene",
    };
    for (size_t i = 0; i < OA_ARRAY_SIZE(names); ++i) {
        if (key_is(k, names[i])) {
            return true;
        }
    }
    return false;
}

static oa_status parse_op_attr(aclopAttr *a, const char *name, const Ge__Proto__AttrDef *v)
{
    switch (v->value_case) {
    case GE__PROTO__ATTR_DEF__VALUE_S: {
        char *s = malloc(v->s.len + 1);
        if (s == NULL) {
            return OA_FAIL(OA_E_NOMEM, "attribute");
        }
        if (v->s.len > 0) {
            memcpy(s, v->s.data, v->s.len);
        }
        s[v->s.len] = '\0';
        const oa_status st = oa_opattr_set_string(a, name, s);
        free(s);
        return st;
    }
    case GE__PROTO__ATTR_DEF__VALUE_I: return oa_opattr_set_int(a, name, v->i);
    case GE__PROTO__ATTR_DEF__VALUE_F: return oa_opattr_set_float(a, name, v->f);
    case GE__PROTO__ATTR_DEF__VALUE_B: return oa_opattr_set_bool(a, name, v->b != 0);
    case GE__PROTO__ATTR_DEF__VALUE_DT: return oa_opattr_set_dtype(a, name, (int32_t)v->dt);
    case GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_INT: {
        const size_t n = v->list_list_int != NULL ? v->list_list_int->n_list_list_i : 0;
        size_t *lens = calloc(n ? n : 1, sizeof(size_t));
        const int64_t **vals = calloc(n ? n : 1, sizeof(int64_t *));
        oa_status st = OA_OK;
        if (lens == NULL || vals == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "attribute");
        }
        for (size_t i = 0; i < n && st == OA_OK; ++i) {
            const Ge__Proto__AttrDef__ListListInt__ListInt *p = v->list_list_int->list_list_i[i];
            lens[i] = p != NULL ? p->n_list_i : 0;
            vals[i] = p != NULL ? p->list_i : NULL;
        }
        if (st == OA_OK) {
            st = oa_opattr_set_list_list_int(a, name, n, lens, vals);
        }
        free(lens);
        free(vals);
        return st;
    }
    case GE__PROTO__ATTR_DEF__VALUE_LIST: {
        const Ge__Proto__AttrDef__ListValue *l = v->list;
        if (l == NULL) {
            return oa_opattr_set_other(a, name, (int32_t)v->value_case);
        }
        switch ((int)l->val_type) {
        case GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_INT:
            return oa_opattr_set_list_int(a, name, l->n_i, l->i);
        case GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_FLOAT:
            return oa_opattr_set_list_float(a, name, l->n_f, l->f);
        case GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_BOOL: {
            bool *b = calloc(l->n_b ? l->n_b : 1, sizeof(bool));
            if (b == NULL) {
                return OA_FAIL(OA_E_NOMEM, "attribute");
            }
            for (size_t i = 0; i < l->n_b; ++i) {
                b[i] = l->b[i] != 0;
            }
            const oa_status st = oa_opattr_set_list_bool(a, name, l->n_b, b);
            free(b);
            return st;
        }
        case GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_DATA_TYPE: {
            int32_t *d = calloc(l->n_dt ? l->n_dt : 1, sizeof(int32_t));
            if (d == NULL) {
                return OA_FAIL(OA_E_NOMEM, "attribute");
            }
            for (size_t i = 0; i < l->n_dt; ++i) {
                d[i] = (int32_t)l->dt[i];
            }
            const oa_status st = oa_opattr_set_list_dtype(a, name, l->n_dt, d);
            free(d);
            return st;
        }
        case GE__PROTO__ATTR_DEF__LIST_VALUE__LIST_VALUE_TYPE__VT_LIST_STRING: {
            char **s = calloc(l->n_s ? l->n_s : 1, sizeof(char *));
            oa_status st = s == NULL ? OA_FAIL(OA_E_NOMEM, "attribute") : OA_OK;
            for (size_t i = 0; i < l->n_s && st == OA_OK; ++i) {
                s[i] = malloc(l->s[i].len + 1);
                if (s[i] == NULL) {
                    st = OA_FAIL(OA_E_NOMEM, "attribute");
                    break;
                }
                if (l->s[i].len > 0) {
                    memcpy(s[i], l->s[i].data, l->s[i].len);
                }
                s[i][l->s[i].len] = '\0';
            }
            if (st == OA_OK) {
                st = oa_opattr_set_list_string(a, name, l->n_s, (const char *const *)s);
            }
            for (size_t i = 0; s != NULL && i < l->n_s; ++i) {
                free(s[i]);
            }
            free(s);
            return st;
        }
        default:
            return oa_opattr_set_other(a, name, 100 + (int32_t)l->val_type);
        }
    }
    default:
        return oa_opattr_set_other(a, name, (int32_t)v->value_case);
    }
}

static oa_status parse_def(const Ge__Proto__ModelDef *def, const char *name, oa_opmodel **out)
{
    const Ge__Proto__AttrDef *tv = attr_of(def->attr, def->n_attr, ATTR_OP_TYPE);
    Ge__Proto__AttrDef__ListValue *ins = NULL, *outs = NULL;
    if (tv == NULL || tv->value_case != GE__PROTO__ATTR_DEF__VALUE_S ||
        !attr_list_tensor(def->attr, def->n_attr, ATTR_INPUTS, &ins) ||
        !attr_list_tensor(def->attr, def->n_attr, ATTR_OUTPUTS, &outs)) {
        return OA_FAIL(OA_E_MODEL_MISSING_ATTR,
                       "Missing required attr. model = %s (a single-op model carries %s, %s and %s)", name,
                       ATTR_OP_TYPE, ATTR_INPUTS, ATTR_OUTPUTS);
    }
    char type[256];
    const size_t tl = OA_MIN(tv->s.len, sizeof(type) - 1);
    memcpy(type, tv->s.data, tl);
    type[tl] = '\0';
    bool support_dynamic = true;
    (void)attr_bool(def->attr, def->n_attr, "support_dynamicshape", &support_dynamic);
    int64_t build_mode = 0;
    (void)attr_int(def->attr, def->n_attr, "_build_mode", &build_mode);
    if (!support_dynamic && build_mode == 0) {
        return OA_FAIL(OA_E_OP_UNSUPPORTED_DYNAMIC, "[Check][SupportDynamic]model[%s] does not support dynamic shape",
                       type);
    }
    if (ins->n_t > INT32_MAX || outs->n_t > INT32_MAX) {
        return OA_FAIL(OA_E_PARSE_MODEL, "model %s: too many tensors", name);
    }
    oa_opmodel *m;
    oa_status st = oa_opmodel_create(type, name, (int)ins->n_t, (int)outs->n_t, &m);
    if (st != OA_OK) {
        return st;
    }
    char what[64];
    for (size_t i = 0; i < ins->n_t && st == OA_OK; ++i) {
        snprintf(what, sizeof what, "input %zu", i);
        st = parse_desc(ins->t[i], type, what, &m->in[i]);
    }
    for (size_t i = 0; i < outs->n_t && st == OA_OK; ++i) {
        snprintf(what, sizeof what, "output %zu", i);
        st = parse_desc(outs->t[i], type, what, &m->out[i]);
    }
    bool dyn_flag = false;
    (void)attr_bool(def->attr, def->n_attr, "_is_dynamic_model", &dyn_flag);
    m->dynamic = dyn_flag;
    if (st == OA_OK && build_mode == 1) {
        const bool has_fuzz = attr_of(def->attr, def->n_attr, "_fuzz_build_res") != NULL;
        const bool all_shape = attr_of(def->attr, def->n_attr, "_AllShape") != NULL;
        m->build_mode = (!has_fuzz && !all_shape && !dyn_flag) ? 1 : 2;
        if (has_fuzz) {
            OA_LOGW("model %s: fuzzy compile results are not applied to its shape ranges", name);
        }
    }
    const size_t plen = strlen(ATTR_PREFIX);
    for (size_t i = 0; i < def->n_attr && st == OA_OK; ++i) {
        const Ge__Proto__AttrMapEntry *e = def->attr[i];
        if (e == NULL || e->value == NULL || e->key.len <= plen || memcmp(e->key.data, ATTR_PREFIX, plen) != 0 ||
            is_dropped_attr(&e->key) || memchr(e->key.data, '\0', e->key.len) != NULL) {
            continue;
        }
        char nm[512];
        const size_t nl = OA_MIN(e->key.len - plen, sizeof(nm) - 1);
        memcpy(nm, e->key.data + plen, nl);
        nm[nl] = '\0';
        st = parse_op_attr(m->attr, nm, e->value);
    }
    if (st != OA_OK) {
        oa_opmodel_unref(m);
        return st;
    }
    *out = m;
    return OA_OK;
}

oa_status oa_opmodel_parse(const void *data, size_t size, const char *name, oa_opmodel **out)
{
    *out = NULL;
    if (size <= OA_OM_HEADER_SIZE) {
        return OA_FAIL(OA_E_PARSE_MODEL,
                       "[Check][Size]invalid model %s. length[%zu] is smaller than or equal to ModelFileHeader "
                       "size[%u]",
                       name, size, OA_OM_HEADER_SIZE);
    }
    oa_om_header h;
    oa_om_header_decode(data, &h);
    const uint64_t len = h.model_length == 0 ? h.length : h.model_length;
    if (len + OA_OM_HEADER_SIZE != size) {
        return OA_FAIL(OA_E_PARSE_MODEL,
                       "[Check][Length]invalid model %s. header size = %u, model size = %llu, file size = %zu", name,
                       OA_OM_HEADER_SIZE, (unsigned long long)len, size);
    }
    oa_om_model *m = NULL;
    oa_status st = oa_om_model_open_memory(data, size, OA_OM_OPEN_SKIP_TASK, &m);
    if (st != OA_OK) {
        return OA_FAIL(oa_om_status_for_op_model(st), "[Init][OmFileLoadHelper]cannot deserialize model %s", name);
    }
    if (m->num_models == 0 || m->models[0].def == NULL) {
        oa_om_model_destroy(m);
        return OA_FAIL(OA_E_DESERIALIZE_MODEL, "[Get][Model]Get MODEL_DEF Partition failed, model %s", name);
    }
    st = parse_def(m->models[0].def, name, out);
    oa_om_model_destroy(m);
    return st;
}

/* ---- files ---- */

oa_status oa_opmodel_read_file(const char *path, void **data, size_t *size)
{
    *data = NULL;
    *size = 0;
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat sb;
    if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size <= 0 || sb.st_size > INT32_MAX) {
        const int e = errno;
        if (fd >= 0) {
            close(fd);
        }
        return OA_FAIL(OA_E_READ_MODEL, "[Read][Bytes]Read model file failed. path = %s (%s)", path,
                       fd < 0 ? strerror(e) : "not a regular file of 1 byte to 2 GiB");
    }
    unsigned char *buf = malloc((size_t)sb.st_size);
    if (buf == NULL) {
        close(fd);
        return OA_FAIL(OA_E_NOMEM, "model file %s", path);
    }
    size_t got = 0;
    while (got < (size_t)sb.st_size) {
        const ssize_t r = read(fd, buf + got, (size_t)sb.st_size - got);
        if (r <= 0) {
            if (r < 0 && errno == EINTR) {
                continue;
            }
            free(buf);
            close(fd);
            return OA_FAIL(OA_E_READ_MODEL, "[Read][Bytes]Read model file failed. path = %s", path);
        }
        got += (size_t)r;
    }
    close(fd);
    *data = buf;
    *size = got;
    return OA_OK;
}

bool oa_opmodel_is_om_name(const char *name)
{
    const size_t n = strlen(name);
    const char *p = NULL;
    /* the last occurrence of ".om" must end the name */
    for (const char *q = strstr(name, ".om"); q != NULL; q = strstr(q + 1, ".om")) {
        p = q;
    }
    return p != NULL && (size_t)(p - name) == n - 3;
}

typedef struct name_list {
    char **v;
    size_t n, cap;
} name_list;

static oa_status name_push(name_list *l, char *s)
{
    if (l->n == l->cap) {
        const size_t cap = l->cap ? l->cap * 2 : 16;
        char **v = realloc(l->v, cap * sizeof(*v));
        if (v == NULL) {
            free(s);
            return OA_FAIL(OA_E_NOMEM, "model file list");
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = s;
    return OA_OK;
}

static int alpha_sort(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

static int keep_entry(const struct dirent *e)
{
    return e->d_type == DT_DIR || e->d_type == DT_REG || e->d_type == DT_UNKNOWN;
}

/* CANN's ListFiles: directories up to depth levels, regular (or unknown-type) files passing the filter. */
static oa_status list_files(const char *dir, int depth, name_list *out)
{
    if (depth <= 0) {
        return OA_OK;
    }
    struct dirent **ents = NULL;
    const int n = scandir(dir, &ents, keep_entry, alpha_sort);
    if (n < 0) {
        return OA_FAIL(OA_E_READ_MODEL, "[Scan][Dir]scan dir failed. path = %s (%s)", dir, strerror(errno));
    }
    oa_status st = OA_OK;
    for (int i = 0; i < n; ++i) {
        const struct dirent *e = ents[i];
        if (st == OA_OK) {
            const size_t len = strlen(dir) + strlen(e->d_name) + 2;
            char *full = malloc(len);
            if (full == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "model file list");
            } else {
                snprintf(full, len, "%s/%s", dir, e->d_name);
                if (e->d_type == DT_DIR) {
                    if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                        st = list_files(full, depth - 1, out);
                    }
                    free(full);
                } else if (oa_opmodel_is_om_name(e->d_name)) {
                    st = name_push(out, full);
                } else {
                    free(full);
                }
            }
        }
        free(ents[i]);
    }
    free(ents);
    return st;
}

oa_status oa_opmodel_load_dir(const char *dir, size_t *loaded)
{
    *loaded = 0;
    name_list files = {0};
    oa_status st = list_files(dir, OM_DIR_MAX_DEPTH, &files);
    oa_opmodel **models = NULL;
    size_t nm = 0;
    if (st == OA_OK && files.n > 0) {
        models = calloc(files.n, sizeof(*models));
        if (models == NULL) {
            st = OA_FAIL(OA_E_NOMEM, "model list");
        }
    }
    /* every file is read first (a read failure fails the call), unparsable ones are skipped */
    for (size_t i = 0; i < files.n && st == OA_OK; ++i) {
        void *data;
        size_t size;
        st = oa_opmodel_read_file(files.v[i], &data, &size);
        if (st != OA_OK) {
            break;
        }
        oa_opmodel *m = NULL;
        const oa_status ps = oa_opmodel_parse(data, size, files.v[i], &m);
        free(data);
        if (ps != OA_OK) {
            OA_LOGW("cannot parse model, errorCode = %d, model = %s, skip it", oa_status_to_acl(ps), files.v[i]);
            continue;
        }
        models[nm++] = m;
    }
    for (size_t i = 0; i < nm; ++i) {
        if (st == OA_OK) {
            st = oa_opcache_register(models[i], true, NULL);
            if (st == OA_OK) {
                ++*loaded;
            }
        }
        oa_opmodel_unref(models[i]);
    }
    free(models);
    for (size_t i = 0; i < files.n; ++i) {
        free(files.v[i]);
    }
    free(files.v);
    return st;
}

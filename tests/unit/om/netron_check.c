/* The Netron compatibility checker (see netron_check.h). */
#include "netron_check.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "om/om_arena.h"
#include "om/om_pb.h"

typedef struct ncx {
    char *msg;
    size_t cap;
    const uint8_t *weights;
} ncx;

static int fail(ncx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(ncx *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(c->msg, c->cap, fmt, ap);
    va_end(ap);
    return -1;
}

static uint64_t rd(const uint8_t *p, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < bytes; ++i) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

/* A value of the graph: name -> (type, initializer). */
typedef struct nval {
    char *name; /* owned by the map (or borrowed in the Const table) */
    bool has_type;
    int dtype; /* 0 = '?' */
    const int64_t *dims;
    size_t rank;
    const void *init;
} nval;

typedef struct vmap {
    nval *v;
    size_t n;
    size_t cap;
} vmap;

/* om.Utility.tensorType: NULL type when the desc or its shape is missing. */
static int tensor_type(ncx *c, const Ge__Proto__TensorDescriptor *d, nval *t)
{
    t->has_type = false;
    if (d == NULL || d->shape == NULL) {
        return 0;
    }
    if ((int)d->dtype >= 32) {
        return fail(c, "Unsupported dtype '%d'", (int)d->dtype);
    }
    t->has_type = true;
    t->dtype = (int)d->dtype;
    t->dims = d->shape->dim;
    t->rank = d->shape->n_dim;
    return 0;
}

static bool shape_equals(const nval *a, const nval *b)
{
    if (a->rank == b->rank && (a->rank == 0 || memcmp(a->dims, b->dims, a->rank * sizeof(int64_t)) == 0)) {
        return true;
    }
    long double pa = 1, pb = 1;
    for (size_t i = 0; i < a->rank; ++i) {
        pa *= (long double)a->dims[i];
    }
    for (size_t i = 0; i < b->rank; ++i) {
        pb *= (long double)b->dims[i];
    }
    return pa == pb;
}

static bool type_equals(const nval *t, const nval *o)
{
    return o->has_type && t->dtype == o->dtype && shape_equals(t, o);
}

/* values.map(name, type, tensor) of om.Graph. */
static int vmap_map(ncx *c, vmap *m, const char *name, const nval *type, const nval *tensor)
{
    for (size_t i = 0; i < m->n; ++i) {
        nval *e = &m->v[i];
        if (strcmp(e->name, name) != 0) {
            continue;
        }
        if ((type != NULL && type->has_type && !type_equals(type, e)) || (tensor != NULL && tensor != e->init)) {
            return fail(c, "Duplicate value '%s'", name);
        }
        return 0;
    }
    if (m->n == m->cap) {
        size_t nc = m->cap ? m->cap * 2 : 64;
        nval *nv = realloc(m->v, nc * sizeof(*nv));
        if (nv == NULL) {
            return fail(c, "out of memory");
        }
        m->v = nv;
        m->cap = nc;
    }
    char *copy = oa_strdup(name);
    if (copy == NULL) {
        return fail(c, "out of memory");
    }
    nval *e = &m->v[m->n++];
    memset(e, 0, sizeof(*e));
    e->name = copy;
    const nval *src = tensor != NULL ? tensor : type;
    if (src != NULL && src->has_type) {
        e->has_type = true;
        e->dtype = src->dtype;
        e->dims = src->dims;
        e->rank = src->rank;
    }
    e->init = tensor;
    return 0;
}

static const Ge__Proto__AttrDef *plain_attr(const Ge__Proto__OpDef *op, const char *key)
{
    return oa_om_attr_get(op->attr, op->n_attr, key);
}

static int check_graph(ncx *c, const Ge__Proto__GraphDef *g, int depth);

static int check_attrs(ncx *c, const Ge__Proto__OpDef *op, int depth)
{
    for (size_t i = 0; i < op->n_attr; ++i) {
        const Ge__Proto__AttrDef *v = op->attr[i]->value;
        if (v == NULL) {
            continue;
        }
        switch (v->value_case) {
        case GE__PROTO__ATTR_DEF__VALUE_TD:
            return fail(c, "op %s: unsupported attribute type 'td'", op->name);
        case GE__PROTO__ATTR_DEF__VALUE_LIST_LIST_FLOAT:
            return fail(c, "op %s: unsupported attribute type 'list_list_float'", op->name);
        case GE__PROTO__ATTR_DEF__VALUE_DT:
            if (v->dt >= 32) {
                return fail(c, "op %s: Unsupported dtype '%lld'", op->name, (long long)v->dt);
            }
            break;
        case GE__PROTO__ATTR_DEF__VALUE_T: {
            nval t;
            if (v->t == NULL || tensor_type(c, v->t->desc, &t) != 0) {
                return v->t == NULL ? fail(c, "op %s: empty tensor attribute", op->name) : -1;
            }
            break;
        }
        case GE__PROTO__ATTR_DEF__VALUE_G:
            if (v->g != NULL && check_graph(c, v->g, depth + 1) != 0) {
                return -1;
            }
            break;
        default:
            break;
        }
    }
    return 0;
}

static int check_graph(ncx *c, const Ge__Proto__GraphDef *g, int depth)
{
    if (depth > 32) {
        return fail(c, "graph attributes nested too deep");
    }
    vmap m = {0};
    nval *tensors = calloc(g->n_op ? g->n_op : 1, sizeof(*tensors));
    int rc = tensors == NULL ? fail(c, "out of memory") : 0;
    /* Const ops become initializers, not nodes. */
    for (size_t o = 0; o < g->n_op && rc == 0; ++o) {
        const Ge__Proto__OpDef *op = g->op[o];
        const Ge__Proto__AttrDef *v = plain_attr(op, "value");
        if (strcmp(op->type, "Const") != 0 || v == NULL) {
            continue;
        }
        if (v->value_case != GE__PROTO__ATTR_DEF__VALUE_T || v->t == NULL) {
            rc = fail(c, "Const %s: value is not a tensor", op->name);
        } else if (v->t->data.len == 0 && c->weights != NULL && v->t->desc == NULL) {
            rc = fail(c, "Const %s: merged weight without a desc", op->name);
        } else {
            rc = tensor_type(c, v->t->desc, &tensors[o]);
            tensors[o].name = op->name; /* borrowed */
        }
    }
    for (size_t o = 0; o < g->n_op && rc == 0; ++o) {
        const Ge__Proto__OpDef *op = g->op[o];
        if (strcmp(op->type, "Const") == 0 && plain_attr(op, "value") != NULL) {
            continue;
        }
        for (size_t i = 0; i < op->n_input && rc == 0; ++i) {
            const char *in = op->input[i];
            const char *colon = strrchr(in, ':');
            if (in[0] == '\0' || (colon != NULL && strcmp(colon + 1, "-1") == 0)) {
                continue;
            }
            size_t idl = colon != NULL ? (size_t)(colon - in) : 0;
            const nval *tensor = NULL;
            for (size_t k = 0; k < g->n_op; ++k) {
                if (tensors[k].name != NULL && strlen(tensors[k].name) == idl && strncmp(tensors[k].name, in, idl) == 0) {
                    tensor = &tensors[k];
                }
            }
            nval t;
            rc = tensor_type(c, i < op->n_input_desc ? op->input_desc[i] : NULL, &t);
            if (rc == 0) {
                rc = vmap_map(c, &m, in, &t, tensor);
            }
        }
        for (size_t i = 0; i < op->n_output_desc && rc == 0; ++i) {
            char id[512];
            (void)snprintf(id, sizeof(id), "%s:%zu", op->name, i);
            nval t;
            rc = tensor_type(c, op->output_desc[i], &t);
            if (rc == 0) {
                rc = vmap_map(c, &m, id, &t, NULL);
            }
        }
        if (rc == 0) {
            rc = check_attrs(c, op, depth);
        }
    }
    for (size_t i = 0; i < m.n; ++i) {
        free(m.v[i].name);
    }
    free(m.v);
    free(tensors);
    return rc;
}

int netron_check(const uint8_t *img, size_t len, char *msg, size_t cap)
{
    ncx c = {msg, cap, NULL};
    if (cap != 0) {
        msg[0] = '\0';
    }
    if (len < 256 || memcmp(img, "IMOD", 4) != 0) {
        return fail(&c, "not a DaVinci OM file");
    }
    const uint64_t headsize = rd(img + 4, 4);
    const uint64_t model_length = rd(img + 184, 8);
    uint32_t types[64];
    uint64_t offs[64], sizes[64];
    size_t np = 0;
    size_t table_size = 0;
    unsigned chosen = 0;
    for (unsigned align = 4; align <= 8; align += 4) {
        np = 0;
        if (headsize + 4 > len) {
            return fail(&c, "Unexpected end of file reading the table");
        }
        const uint64_t count = rd(img + headsize, 4);
        uint64_t pos = headsize + 4 + (align - 4);
        table_size = 4 + (align - 4) + count * 3 * align;
        bool ok = true;
        for (uint64_t i = 0; i < count; ++i) {
            if (pos + 3 * align > len) {
                return fail(&c, "Unexpected end of file reading the table");
            }
            const uint64_t type = rd(img + pos, align), off = rd(img + pos + align, align),
                           size = rd(img + pos + 2 * align, align);
            pos += 3 * align;
            bool dupl = false;
            for (size_t k = 0; k < np; ++k) {
                dupl = dupl || types[k] == type;
            }
            if (type >= 32 || dupl || off + size >= len || np == 64) {
                ok = false;
                np = 0;
                break;
            }
            types[np] = (uint32_t)type;
            offs[np] = off;
            sizes[np] = size;
            np++;
        }
        if (ok && np > 0) {
            chosen = align;
            break;
        }
    }
    bool has_def = false;
    for (size_t k = 0; k < np; ++k) {
        has_def = has_def || types[k] == 0;
    }
    if (!has_def) {
        return fail(&c, "File does not contain a model definition");
    }
    if (chosen == 4 && model_length != 0) {
        return fail(&c, "the 64-bit partition table was read as a 32-bit one (write at least two partitions)");
    }
    const uint8_t *def = NULL;
    size_t def_len = 0;
    for (size_t k = 0; k < np; ++k) {
        const uint64_t at = headsize + table_size + offs[k];
        if (at > len || sizes[k] > len - at) {
            return fail(&c, "partition %u lies outside the file", types[k]);
        }
        const uint32_t t = types[k];
        if (t == 5 || (t > 12 && t < 20) || t > 24) {
            return fail(&c, "Unsupported DaVinci OM partition type '%u'", t);
        }
        if (t == 0) {
            def = img + at;
            def_len = (size_t)sizes[k];
        } else if (t == 1) {
            c.weights = img + at;
        }
    }
    oa_om_arena *a = NULL;
    if (oa_om_arena_create(&a) != OA_OK) {
        return fail(&c, "out of memory");
    }
    ProtobufCMessage *msgp = NULL;
    int rc = 0;
    if (oa_om_pb_decode(&ge__proto__model_def__descriptor, def, def_len, a, OA_E_GE_LOAD_MODEL_PARTITION, "MODEL_DEF",
                        &msgp) != OA_OK) {
        (void)oa_error_take_messages();
        rc = fail(&c, "File format is not ge.proto.ModelDef");
    }
    const Ge__Proto__ModelDef *m = (const Ge__Proto__ModelDef *)msgp;
    for (size_t g = 0; rc == 0 && g < m->n_graph; ++g) {
        rc = check_graph(&c, m->graph[g], 0);
    }
    oa_om_arena_destroy(a);
    return rc;
}

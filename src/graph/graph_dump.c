/*
 * Readable text dump of graphs (graph.h oa_graph_dump): one line per node,
 * subgraphs indented under their owner. Used by tests and debugging, so
 * the format is stable: change it only together with the tests.
 */
#define OA_LOG_MODULE "GE"
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "graph/graph_internal.h"

char *oa_desc_str(const oa_tensor_desc *d, char *buf, size_t cap)
{
    char sb[160];
    if (cap == 0) {
        return buf;
    }
    if (oa_desc_is_invalid(d)) {
        snprintf(buf, cap, "-");
        return buf;
    }
    oa_shape_str(&d->shape, sb, sizeof(sb));
    if (d->format == OA_FORMAT_ND) {
        snprintf(buf, cap, "%s%s", oa_dtype_short_name(d->dtype), sb);
    } else {
        snprintf(buf, cap, "%s%s:%s", oa_dtype_short_name(d->dtype), sb, oa_format_name(d->format));
    }
    if (d->has_range && d->shape.rank > 0) {
        size_t pos = strlen(buf);
        for (int32_t i = 0; i < d->shape.rank && pos + 24 < cap; i++) {
            int w = snprintf(buf + pos, cap - pos, "%s%" PRId64 "~%" PRId64, i ? "," : " range[", d->range_min[i],
                             d->range_max[i]);
            if (w < 0) {
                break;
            }
            pos += (size_t)w;
        }
        if (pos + 1 < cap) {
            snprintf(buf + pos, cap - pos, "]");
        }
    }
    return buf;
}

static void put_list_i(FILE *f, const int64_t *v, size_t n)
{
    fputc('[', f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s%" PRId64, i ? "," : "", v[i]);
    }
    fputc(']', f);
}

static void put_attr(FILE *f, const oa_attr *a)
{
    fprintf(f, "%s=", a->name);
    switch (a->type) {
    case OA_ATTR_INT: fprintf(f, "%" PRId64, a->u.i); break;
    case OA_ATTR_FLOAT: fprintf(f, "%g", (double)a->u.f); break;
    case OA_ATTR_BOOL: fputs(a->u.b ? "true" : "false", f); break;
    case OA_ATTR_STRING: fprintf(f, "\"%s\"", a->u.s.data); break;
    case OA_ATTR_BYTES: fprintf(f, "bytes(%zu)", a->u.s.len); break;
    case OA_ATTR_DTYPE: fputs(oa_dtype_name(a->u.dt), f); break;
    case OA_ATTR_LIST_INT: put_list_i(f, a->u.li.v, a->u.li.n); break;
    case OA_ATTR_LIST_FLOAT:
        fputc('[', f);
        for (size_t i = 0; i < a->u.lf.n; i++) {
            fprintf(f, "%s%g", i ? "," : "", (double)a->u.lf.v[i]);
        }
        fputc(']', f);
        break;
    case OA_ATTR_LIST_BOOL:
        fputc('[', f);
        for (size_t i = 0; i < a->u.lb.n; i++) {
            fprintf(f, "%s%s", i ? "," : "", a->u.lb.v[i] ? "true" : "false");
        }
        fputc(']', f);
        break;
    case OA_ATTR_LIST_STRING:
        fputc('[', f);
        for (size_t i = 0; i < a->u.ls.n; i++) {
            fprintf(f, "%s\"%s\"", i ? "," : "", a->u.ls.v[i]);
        }
        fputc(']', f);
        break;
    case OA_ATTR_LIST_DTYPE:
        fputc('[', f);
        for (size_t i = 0; i < a->u.ldt.n; i++) {
            fprintf(f, "%s%s", i ? "," : "", oa_dtype_name(a->u.ldt.v[i]));
        }
        fputc(']', f);
        break;
    case OA_ATTR_LIST_LIST_INT:
        fputc('[', f);
        for (size_t i = 0; i < a->u.lli.n; i++) {
            if (i) {
                fputc(',', f);
            }
            put_list_i(f, a->u.lli.v[i], a->u.lli.lens[i]);
        }
        fputc(']', f);
        break;
    case OA_ATTR_LIST_LIST_FLOAT: fprintf(f, "list_list_float(%zu)", a->u.llf.n); break;
    case OA_ATTR_TENSOR: {
        char db[256];
        fprintf(f, "tensor(%s, %zu bytes%s)", oa_desc_str(&a->u.t->desc, db, sizeof(db)), a->u.t->size,
                a->u.t->blob ? ", borrowed" : "");
        break;
    }
    case OA_ATTR_TENSOR_DESC: {
        char db[256];
        fprintf(f, "desc(%s)", oa_desc_str(a->u.td, db, sizeof(db)));
        break;
    }
    case OA_ATTR_GRAPH: fprintf(f, "graph(%s)", a->u.graph); break;
    case OA_ATTR_NAMED:
        fprintf(f, "named(%s){", a->u.na.name);
        for (const oa_attr *x = a->u.na.attrs->head; x != NULL; x = x->next) {
            put_attr(f, x);
            fputs(x->next ? ", " : "", f);
        }
        fputc('}', f);
        break;
    default: fputs("?", f); break;
    }
}

static void put_value(FILE *f, const oa_value *v)
{
    fputs(" = {", f);
    int64_t shown = v->count < 16 ? v->count : 16;
    for (int64_t k = 0; k < shown; k++) {
        if (k) {
            fputc(',', f);
        }
        if (!oa_value_known(v, k)) {
            fputc('?', f);
        } else if (v->i) {
            fprintf(f, "%" PRId64, v->i[k]);
        } else if (v->f) {
            fprintf(f, "%g", v->f[k]);
        }
    }
    if (shown < v->count) {
        fputs(",...", f);
    }
    fputc('}', f);
}

static void dump_graph(const oa_graph *g, FILE *f, unsigned flags, int indent)
{
    char db[512];
    fprintf(f, "%*sgraph %s\n", indent, "", g->name);
    for (const oa_node *n = g->first; n; n = n->next) {
        fprintf(f, "%*s  %%%s = %s(", indent, "", n->name, n->type_name);
        bool first = true;
        for (uint32_t i = 0; i < n->num_inputs; i++) {
            if (n->type == OA_OP_DATA) {
                break;
            }
            const oa_input *in = &n->inputs[i];
            fputs(first ? "" : ", ", f);
            first = false;
            if (in->src == NULL) {
                fputc('-', f);
            } else if (in->src_index == 0) {
                fprintf(f, "%%%s", in->src->name);
            } else {
                fprintf(f, "%%%s:%u", in->src->name, in->src_index);
            }
            if (in->desc.name) {
                fprintf(f, " \"%s\"", in->desc.name);
            }
            if (flags & OA_DUMP_INPUT_DESCS) {
                fprintf(f, " %s", oa_desc_str(&in->desc, db, sizeof(db)));
            }
        }
        for (uint32_t i = 0; i < n->num_ctrl_inputs; i++) {
            fprintf(f, "%s^%s", first ? "" : ", ", n->ctrl_inputs[i]->name);
            first = false;
        }
        fputc(')', f);
        if (!(flags & OA_DUMP_NO_ATTRS) && n->attrs.head) {
            fputs(" {", f);
            for (const oa_attr *a = n->attrs.head; a; a = a->next) {
                put_attr(f, a);
                if (a->next) {
                    fputs(", ", f);
                }
            }
            fputc('}', f);
        }
        fputs(" ->", f);
        for (uint32_t i = 0; i < n->num_outputs; i++) {
            fprintf(f, "%s %s", i ? "," : "", oa_desc_str(&n->outputs[i].desc, db, sizeof(db)));
            if ((flags & OA_DUMP_VALUES) && n->outputs[i].desc.value) {
                put_value(f, n->outputs[i].desc.value);
            }
        }
        fputc('\n', f);
        if (!(flags & OA_DUMP_NO_SUBGRAPHS)) {
            for (uint32_t i = 0; i < n->num_subgraphs; i++) {
                fprintf(f, "%*s    [%s]\n", indent, "", n->subgraphs[i].ir_name);
                dump_graph(n->subgraphs[i].graph, f, flags, indent + 4);
            }
        }
    }
}

oa_status oa_graph_dump(const oa_graph *g, FILE *f, unsigned flags)
{
    if (g == NULL || f == NULL) {
        return OA_FAIL(OA_E_PARAM, "dump needs a graph and a stream");
    }
    dump_graph(g, f, flags, 0);
    if (fflush(f) != 0 || ferror(f)) {
        return OA_FAIL(OA_E_WRITE_FILE, "cannot write the dump of graph %s: %s", g->name, strerror(errno));
    }
    return OA_OK;
}

char *oa_graph_dump_string(const oa_graph *g, unsigned flags)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (f == NULL) {
        (void)OA_FAIL(OA_E_NOMEM, "cannot open a memory stream for a dump");
        return NULL;
    }
    oa_status st = oa_graph_dump(g, f, flags);
    fclose(f);
    if (st != OA_OK) {
        free(buf);
        return NULL;
    }
    return buf;
}

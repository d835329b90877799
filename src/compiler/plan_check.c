/*
 * Independent check of a static plan against the graphs
 * (oa_compiled_model_check_plan): it recomputes lifetimes from the
 * schedule and checks ranges and overlaps without using the planner.
 */
#define OA_LOG_MODULE "GE"
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "compiler/compiler_internal.h"
#include "compiler/pass_util.h"

typedef struct tens {
    const oa_node *n;
    uint32_t k;
    int64_t off, size;
    int32_t first, last;
    bool io; /* a model input or output of the root graph */
} tens;

static size_t find(size_t *parent, size_t x)
{
    while (parent[x] != x) {
        x = parent[x] = parent[parent[x]];
    }
    return x;
}

static bool weight(const oa_node *n)
{
    return n->type == OA_OP_CONST || n->type == OA_OP_CONSTANT || n->type == OA_OP_FILE_CONSTANT;
}

static oa_status check_graph(const oa_compiled_model *cm, const oa_graph *g, const oa_node *owner)
{
    const oa_mem_plan *p = cm->plan;
    oa_node **order;
    size_t count;
    oa_status st = oa_graph_topo_order(g, &order, &count);
    if (st != OA_OK) {
        return st;
    }
    size_t cap = 1;
    for (size_t i = 0; i < count; i++) {
        order[i]->mark = (uint32_t)i;
        cap += order[i]->num_outputs;
    }
    tens *t = calloc(cap, sizeof(*t));
    size_t *parent = calloc(cap, sizeof(*parent));
    size_t nt = 0;
    if (t == NULL || parent == NULL) {
        st = OA_FAIL(OA_E_NOMEM, "out of memory checking the plan");
        goto done;
    }
    const oa_node_mem *orec = owner ? oa_mem_plan_node(p, owner) : NULL;
    for (size_t i = 0; i < count && st == OA_OK; i++) {
        const oa_node *n = order[i];
        if (weight(n) || n->type == OA_OP_NET_OUTPUT) {
            continue;
        }
        const oa_node_mem *r = oa_mem_plan_node(p, n);
        if (r == NULL) {
            st = OA_FAIL(OA_E_INTERNAL, "plan check: node %s has no memory record", n->name);
            break;
        }
        for (uint32_t k = 0; k < n->num_outputs && st == OA_OK; k++) {
            size_t size;
            if (!oa_desc_bytes(&n->outputs[k].desc, &size)) {
                st = OA_FAIL(OA_E_INTERNAL, "plan check: output %u of %s has no static size", k, n->name);
                break;
            }
            int64_t off = r->output[k];
            if (off < 0 || off + (int64_t)size > p->memory_size) {
                st = OA_FAIL(OA_E_INTERNAL, "plan check: output %u of %s at %lld (+%zu) is outside [0, %lld)", k,
                             n->name, (long long)off, size, (long long)p->memory_size);
                break;
            }
            bool result = oa_cp_is_graph_output(n, k);
            if (owner == NULL) {
                /* the zero-copy region is checked below, once Concat parts are known */
            } else if (orec != NULL && owner->type != OA_OP_WHILE && n->type != OA_OP_DATA && !result && size > 0 &&
                       (off < orec->workspace || off + (int64_t)size > orec->workspace + orec->workspace_size)) {
                st = OA_FAIL(OA_E_INTERNAL, "plan check: %s output %u at %lld is outside the region of %s", n->name, k,
                             (long long)off, owner->name);
                break;
            }
            int32_t last = (int32_t)n->mark;
            size_t nu = oa_cp_num_uses(n, k);
            oa_use *u = malloc((nu ? nu : 1) * sizeof(*u));
            if (u == NULL) {
                st = OA_FAIL(OA_E_NOMEM, "out of memory checking the plan");
                break;
            }
            (void)oa_node_output_uses(n, k, u, nu);
            for (size_t j = 0; j < nu; j++) {
                last = OA_MAX(last, (int32_t)u[j].node->mark);
            }
            free(u);
            t[nt] = (tens){n, k, off, (int64_t)size, n->type == OA_OP_DATA ? 0 : (int32_t)n->mark, last,
                           owner == NULL && (n->type == OA_OP_DATA || result)};
            parent[nt] = nt;
            nt++;
        }
    }
    /* In-place pairs: the consumer's output sits where an input it may run in place on was
     * (oa_mem_inplace_slot): its only reader, or for a Concat's window in place or a residual, its last
     * (oa_mem_inplace_last_reader). */
    for (size_t a = 0; a < nt && st == OA_OK; a++) {
        for (size_t b = 0; b < nt; b++) {
            if (a == b || t[a].off != t[b].off) {
                continue;
            }
            const oa_node *reader = oa_cp_single_use(t[a].n, t[a].k, NULL);
            bool pair = t[a].n->type == OA_OP_DATA && t[b].n->type == OA_OP_DATA;
            for (uint32_t s = 0; !pair && (reader == t[b].n || t[a].last == t[b].first) && s < t[b].n->num_inputs;
                 s++) {
                uint32_t si;
                pair = oa_node_input_src(t[b].n, s, &si) == t[a].n && si == t[a].k && oa_mem_inplace_slot(t[b].n, s) &&
                       (reader == t[b].n || oa_mem_inplace_last_reader(t[b].n, s));
            }
            if (pair) {
                parent[find(parent, a)] = find(parent, b);
            }
        }
    }
    /* Concat in place: an input that lies inside the Concat's output, where the Concat puts it. */
    for (size_t c = 0; c < nt && st == OA_OK; c++) {
        for (uint32_t s = 0; s < t[c].n->num_inputs; s++) {
            size_t at;
            uint32_t si;
            const oa_node *src = oa_node_input_src(t[c].n, s, &si);
            if (!oa_mem_concat_slot_offset(t[c].n, s, &at)) {
                continue;
            }
            for (size_t a = 0; a < nt; a++) {
                if (t[a].n == src && t[a].k == si && t[a].off == t[c].off + (int64_t)at &&
                    t[a].off + t[a].size <= t[c].off + t[c].size) {
                    parent[find(parent, a)] = find(parent, c);
                }
            }
        }
    }
    /* Root graph: model inputs and outputs (and what lies in them) are in the zero-copy region, the rest is not. */
    for (size_t a = 0; a < nt && st == OA_OK && owner == NULL; a++) {
        bool io = t[a].io;
        for (size_t b = 0; b < nt && !io; b++) {
            io = t[b].io && t[b].n->type != OA_OP_DATA && find(parent, a) == find(parent, b);
        }
        bool in_zc = t[a].off >= p->zero_copy_offset;
        if (io != in_zc && t[a].size > 0) {
            st = OA_FAIL(OA_E_INTERNAL, "plan check: %s output %u at %lld is %s the zero-copy region", t[a].n->name,
                         t[a].k, (long long)t[a].off, in_zc ? "inside" : "outside");
        }
    }
    for (size_t a = 0; a < nt && st == OA_OK; a++) {
        for (size_t b = a + 1; b < nt && st == OA_OK; b++) {
            if (t[a].size == 0 || t[b].size == 0 || t[a].first > t[b].last || t[b].first > t[a].last) {
                continue;
            }
            bool overlap = t[a].off < t[b].off + t[b].size && t[b].off < t[a].off + t[a].size;
            bool both_data = t[a].n->type == OA_OP_DATA && t[b].n->type == OA_OP_DATA && t[a].off == t[b].off;
            if (overlap && !both_data && find(parent, a) != find(parent, b)) {
                st = OA_FAIL(OA_E_INTERNAL,
                             "plan check: %s:%u [%lld,+%lld) and %s:%u [%lld,+%lld) are alive together in graph %s "
                             "and overlap",
                             t[a].n->name, t[a].k, (long long)t[a].off, (long long)t[a].size, t[b].n->name, t[b].k,
                             (long long)t[b].off, (long long)t[b].size, oa_graph_name(g));
            }
        }
    }
    for (size_t i = 0; i < count; i++) {
        order[i]->mark = 0;
    }
    for (size_t i = 0; i < count && st == OA_OK; i++) {
        for (uint32_t s = 0; s < order[i]->num_subgraphs && st == OA_OK; s++) {
            st = check_graph(cm, order[i]->subgraphs[s].graph, order[i]);
        }
    }
done:
    free(t);
    free(parent);
    free(order);
    return st;
}

oa_status oa_compiled_model_check_plan(const oa_compiled_model *cm)
{
    if (cm == NULL || cm->plan == NULL) {
        return OA_FAIL(OA_E_PARAM, "plan check: the model has no static plan");
    }
    const oa_mem_plan *p = cm->plan;
    if (p->memory_size <= 0 || p->zero_copy_offset < p->feature_map_size ||
        p->zero_copy_offset + p->zero_copy_size != p->memory_size) {
        return OA_FAIL(OA_E_INTERNAL, "plan check: sizes are inconsistent (memory %lld, zero copy %lld at %lld, fm %lld)",
                       (long long)p->memory_size, (long long)p->zero_copy_size, (long long)p->zero_copy_offset,
                       (long long)p->feature_map_size);
    }
    return check_graph(cm, cm->graph, NULL);
}

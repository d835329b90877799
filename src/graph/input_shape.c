/*
 * User input shapes (atc --input_shape syntax) applied to Data nodes
 * (infer.h oa_graph_set_input_shapes / oa_graph_set_input_shape).
 */
#define OA_LOG_MODULE "GE"
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/util.h"
#include "graph/graph_internal.h"
#include "graph/infer.h"

oa_status oa_graph_set_input_shape(oa_node *data, const oa_shape *shape, const int64_t *range_min,
                                   const int64_t *range_max)
{
    if (data == NULL || shape == NULL || data->type != OA_OP_DATA || data->num_inputs < 1 || data->num_outputs < 1) {
        return OA_FAIL(OA_E_PARAM, "input shape must be applied to a Data node");
    }
    if (shape->rank < 0 || shape->rank > OA_MAX_RANK) {
        return OA_FAIL(OA_E_PARAM, "input %s: rank %d is not supported (0..%d)", data->name, shape->rank,
                       OA_MAX_RANK);
    }
    const oa_shape *model = &data->inputs[0].desc.shape;
    char ms[160], us[160];
    if (model->rank >= 0 && model->rank != shape->rank) {
        return OA_FAIL(OA_E_PARAM, "input %s: shape %s has rank %d but the model declares %s (rank %d)", data->name,
                       oa_shape_str(shape, us, sizeof(us)), shape->rank, oa_shape_str(model, ms, sizeof(ms)),
                       model->rank);
    }
    for (int32_t i = 0; i < shape->rank; i++) {
        int64_t d = shape->dims[i];
        if (d < -1) {
            return OA_FAIL(OA_E_PARAM, "input %s: dim %d is %lld (use -1 for unknown)", data->name, i, (long long)d);
        }
        if (model->rank >= 0 && model->dims[i] >= 0 && d >= 0 && model->dims[i] != d) {
            return OA_FAIL(OA_E_PARAM, "input %s: dim %d is %lld but the model fixes it to %lld (model shape %s)",
                           data->name, i, (long long)d, (long long)model->dims[i],
                           oa_shape_str(model, ms, sizeof(ms)));
        }
        if (range_min && range_max) {
            if (range_min[i] < 0 || (range_max[i] != -1 && range_max[i] < range_min[i])) {
                return OA_FAIL(OA_E_PARAM, "input %s: dim %d range %lld~%lld is invalid", data->name, i,
                               (long long)range_min[i], (long long)range_max[i]);
            }
        }
    }
    for (int k = 0; k < 2; k++) {
        oa_tensor_desc *d = k ? &data->outputs[0].desc : &data->inputs[0].desc;
        d->shape = *shape;
        d->value = NULL;
        d->has_range = range_min != NULL && range_max != NULL;
        for (int32_t i = 0; i < shape->rank && d->has_range; i++) {
            d->range_min[i] = range_min[i];
            d->range_max[i] = range_max[i];
        }
    }
    return OA_OK;
}

static const char *skip_ws(const char *p, const char *end)
{
    while (p < end && isspace((unsigned char)*p)) {
        p++;
    }
    return p;
}

/* Parses one integer in [p, end); false unless the whole token is one. */
static bool parse_int(const char *p, const char *end, int64_t *out)
{
    p = skip_ws(p, end);
    while (end > p && isspace((unsigned char)end[-1])) {
        end--;
    }
    if (p == end || (size_t)(end - p) > 24) {
        return false;
    }
    char buf[32];
    memcpy(buf, p, (size_t)(end - p));
    buf[end - p] = '\0';
    char *stop;
    errno = 0;
    long long v = strtoll(buf, &stop, 10);
    if (errno != 0 || *stop != '\0') {
        return false;
    }
    *out = v;
    return true;
}

static oa_status apply_entry(oa_graph *g, const char *p, const char *end, const char *spec)
{
    const char *colon = NULL;
    for (const char *q = p; q < end; q++) {
        if (*q == ':') {
            colon = q;
        }
    }
    int len = (int)(end - p);
    if (colon == NULL) {
        return OA_FAIL(OA_E_PARAM, "input shape entry [%.*s] has no ':' (expected name:d0,d1,...) in [%s]", len, p,
                       spec);
    }
    const char *ns = skip_ws(p, colon), *ne = colon;
    while (ne > ns && isspace((unsigned char)ne[-1])) {
        ne--;
    }
    if (ne == ns) {
        return OA_FAIL(OA_E_PARAM, "input shape entry [%.*s] has an empty name", len, p);
    }
    char name[512];
    if ((size_t)(ne - ns) >= sizeof(name)) {
        return OA_FAIL(OA_E_PARAM, "input name in [%.*s] is too long", len, p);
    }
    memcpy(name, ns, (size_t)(ne - ns));
    name[ne - ns] = '\0';
    oa_node *data = oa_graph_find_node(g, name);
    if (data == NULL || data->type != OA_OP_DATA) {
        char avail[512];
        size_t pos = 0;
        avail[0] = '\0';
        for (oa_node *n = oa_graph_first_node(g); n && pos + 2 < sizeof(avail); n = n->next) {
            if (n->type == OA_OP_DATA) {
                int w = snprintf(avail + pos, sizeof(avail) - pos, "%s%s", pos ? ", " : "", n->name);
                if (w < 0) {
                    break;
                }
                pos += (size_t)w;
            }
        }
        return OA_FAIL(OA_E_PARAM,
                       "E10016: Op name %s specified in --input_shape is not found in the model. Confirm whether this "
                       "node name exists, or whether the node is not split with the specified delimiter ';' "
                       "(input shape names [%s], which is not a model input (inputs: %s))",
                       name, name, avail);
    }
    oa_shape s;
    memset(&s, 0, sizeof(s));
    int64_t rmin[OA_MAX_RANK], rmax[OA_MAX_RANK];
    bool ranged = false;
    const char *q = skip_ws(colon + 1, end);
    if (q < end) {
        const char *tok = colon + 1;
        for (;;) {
            const char *comma = tok;
            while (comma < end && *comma != ',') {
                comma++;
            }
            if (s.rank >= OA_MAX_RANK) {
                return OA_FAIL(OA_E_PARAM, "input %s: more than %d dims in [%.*s]", name, OA_MAX_RANK, len, p);
            }
            const char *tilde = tok;
            while (tilde < comma && *tilde != '~') {
                tilde++;
            }
            int64_t v, lo, hi;
            if (tilde < comma) {
                if (!parse_int(tok, tilde, &lo) || !parse_int(tilde + 1, comma, &hi)) {
                    return OA_FAIL(OA_E_PARAM, "input %s: bad range [%.*s]", name, (int)(comma - tok), tok);
                }
                s.dims[s.rank] = (lo == hi && lo >= 0) ? lo : -1;
                rmin[s.rank] = lo;
                rmax[s.rank] = hi;
                ranged = true;
            } else {
                if (!parse_int(tok, comma, &v)) {
                    return OA_FAIL(OA_E_PARAM, "input %s: bad dim [%.*s]", name, (int)(comma - tok), tok);
                }
                s.dims[s.rank] = v;
                rmin[s.rank] = v >= 0 ? v : 0;
                rmax[s.rank] = v >= 0 ? v : -1;
            }
            s.rank++;
            if (comma >= end) {
                break;
            }
            tok = comma + 1;
        }
    }
    return oa_graph_set_input_shape(data, &s, ranged ? rmin : NULL, ranged ? rmax : NULL);
}

oa_status oa_graph_set_input_shapes(oa_graph *g, const char *spec)
{
    if (g == NULL || spec == NULL) {
        return OA_FAIL(OA_E_PARAM, "input shapes need a graph and a spec");
    }
    const char *p = spec;
    const char *end = spec + strlen(spec);
    char seen[64][128];
    size_t nseen = 0;
    while (p < end) {
        const char *semi = p;
        while (semi < end && *semi != ';') {
            semi++;
        }
        if (skip_ws(p, semi) < semi) {
            oa_status st = apply_entry(g, p, semi, spec);
            if (st != OA_OK) {
                return st;
            }
            /* Reject a name given twice (compare the name part). */
            const char *colon = semi;
            while (colon > p && *colon != ':') {
                colon--;
            }
            const char *ns = skip_ws(p, colon);
            size_t nl = (size_t)(colon - ns);
            while (nl > 0 && isspace((unsigned char)ns[nl - 1])) {
                nl--;
            }
            for (size_t i = 0; i < nseen; i++) {
                if (strlen(seen[i]) == nl && strncmp(seen[i], ns, nl) == 0) {
                    return OA_FAIL(OA_E_PARAM, "input %.*s is given twice in [%s]", (int)nl, ns, spec);
                }
            }
            if (nseen < OA_ARRAY_SIZE(seen) && nl < sizeof(seen[0])) {
                memcpy(seen[nseen], ns, nl);
                seen[nseen][nl] = '\0';
                nseen++;
            }
        }
        p = semi + 1;
    }
    return OA_OK;
}

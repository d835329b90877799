/*
 * Stand-in for op_exec.c in trees without src/op_bind (the kernel binding
 * of IR nodes): every execution or compilation answers that no kernel can
 * be bound. Removed once op_bind is part of the tree.
 */
#include "acl_op/op_exec.h"

#include "base/error.h"

oa_status oa_opexec_build(const oa_opspec *spec, oa_opexec **out)
{
    *out = NULL;
    return OA_FAIL(OA_E_OP_NOT_FOUND, "op %s: this build has no kernel binding for single operators", spec->type);
}

void oa_opexec_ref(oa_opexec *e)
{
    (void)e;
}

void oa_opexec_unref(oa_opexec *e)
{
    (void)e;
}

void oa_opexec_output_dims(const oa_opexec *e, int k, const int64_t **dims, size_t *ndims)
{
    (void)e;
    (void)k;
    *dims = NULL;
    *ndims = 0;
}

size_t oa_opexec_input_bytes(const oa_opexec *e, int i)
{
    (void)e;
    (void)i;
    return 0;
}

size_t oa_opexec_output_bytes(const oa_opexec *e, int k)
{
    (void)e;
    (void)k;
    return 0;
}

const oa_graph *oa_opexec_graph(const oa_opexec *e)
{
    (void)e;
    return NULL;
}

oa_status oa_opexec_submit(oa_opexec *e, int n_in, const aclDataBuffer *const *in, int n_out,
                           aclDataBuffer *const *out, aclrtStream stream)
{
    (void)e;
    (void)n_in;
    (void)in;
    (void)n_out;
    (void)out;
    (void)stream;
    return OA_FAIL(OA_E_OP_NOT_FOUND, "this build has no kernel binding for single operators");
}

oa_status oa_opmodel_get_exec(oa_opmodel *m, const oa_opreq *req, oa_opexec **out)
{
    (void)req;
    *out = NULL;
    return OA_FAIL(OA_E_OP_NOT_FOUND, "op %s: this build has no kernel binding for single operators", m->type);
}

void oa_opmodel_drop_execs(oa_opmodel *m)
{
    (void)m;
}

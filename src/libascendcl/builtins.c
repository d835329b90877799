/*
 * The built-in plug-ins of libascendcl.so: acl_mdl calls this once (weak
 * reference, model_reader.h) before its first use of a reader or an
 * executor. Programs that link the static parts instead register their own.
 */
#include "acl_mdl/model_reader.h"
#include "acl_mdl/om_reader.h"
#include "model_v1/v1_model.h"
#include "model_v2/model_v2.h"

void oa_mdl_register_builtins(void)
{
    oa_model_reader_register(&oa_om_reader);
    oa_model_v1_register();
    oa_model_v2_register();
}

/* Registration of model_v1's executor and capture hooks with acl_mdl (see v1_model.h). */
#include "acl_mdl/model.h"
#include "model_v1/v1_capture.h"
#include "model_v1/v1_model.h"

void oa_model_v1_register(void)
{
    oa_model_executor_register(OA_ROUTE_V1, &oa_v1_exec_ops);
    oa_v1_capture_register();
}

/* Layer probe: file_constant must not see the model API (must NOT compile). */
#include "acl_mdl/model.h"
#include "file_constant/file_constant.h"

int oa_layers_probe_fc_mdl(void);
int oa_layers_probe_fc_mdl(void)
{
    return 0;
}

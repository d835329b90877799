/* Layer probe: om may include its own folder and base (compiles). */
#include "base/status.h"
#include "om/om_format.h"

int oa_layers_probe_legal(void);
int oa_layers_probe_legal(void)
{
    return (int)OA_OM_HEADER_SIZE;
}

/* Layer probe: dump must not see acl_base (the old acl_base <-> dump cycle; must NOT compile). */
#include "acl_base/data_buffer.h"
#include "dump/dump_config.h"

int oa_layers_probe_dump_base(void);
int oa_layers_probe_dump_base(void)
{
    return 0;
}

/* Layer probe: the .om container must not see the IR (must NOT compile). */
#include "graph/graph.h"
#include "om/om_format.h"

int oa_layers_probe_om_graph(void);
int oa_layers_probe_om_graph(void)
{
    return 0;
}

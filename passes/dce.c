/* dce: torch.fx's eliminate_dead_code as a pass (one reverse sweep, so a
 * dead chain goes at once). Side-effect ops stay: the air stream/event ops
 * and ops whose schema writes an argument (torch 1.13 deletes them). */
#include "passmgr/passmgr.h"

airc_status airc_pass_dce(airc_graph *g, int32_t *changed)
{
    AIRC_TRY(airc_check_graph(g, "airc_pass_dce"));
    return airc_pass_each_graph(g, airc_graph_eliminate_dead_code, changed);
}

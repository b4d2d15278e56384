/* dce: torch.fx's eliminate_dead_code as a pass (one reverse sweep, so a
 * dead chain goes at once). Side-effect ops stay: the air stream/event ops
 * and ops whose schema writes an argument (torch 1.13 deletes them). */
#include "passmgr/passmgr.h"

airc_status airc_pass_dce(airc_graph *g, int32_t *changed)
{
    AIRC_TRY(airc_check_graph(g, "airc_pass_dce"));
    int32_t any = 0;
    AIRC_TRY(airc_graph_eliminate_dead_code(g, &any));
    for (size_t i = 0; i < g->nsubs; i++) { /* nested graphs are code too */
        int32_t sub = 0;
        AIRC_TRY(airc_pass_dce(g->subs[i], &sub));
        any |= sub;
    }
    if (changed)
        *changed = any;
    return AIRC_OK;
}

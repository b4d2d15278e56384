/* view_to_reshape: aten.view.default -> aten.reshape.default, as TorchAir's
 * _optimize_fx does (Inductor's view_to_reshape) after functionalization,
 * so that later passes and backends need not prove a view's input
 * contiguous: reshape copies when it must. The node keeps its name. */
#include "passmgr/passmgr.h"
#include "ops/ops.h"

#include <string.h>

airc_status airc_pass_view_to_reshape(airc_graph *g, int32_t *changed)
{
    AIRC_TRY(airc_check_graph(g, "airc_pass_view_to_reshape"));
    int32_t any = 0;
    AIRC_FOR_EACH_NODE(g, n) {
        if (n->kind != AIRC_NODE_CALL_FUNCTION || strcmp(n->op->qualname, "aten.view.default"))
            continue;
        airc_status st = airc_node_set_target(n, "aten.reshape.default");
        if (st != AIRC_OK)
            return airc_fail_prefix("view_to_reshape: node '%s'", n->name);
        any = 1;
    }
    if (changed)
        *changed = any;
    return AIRC_OK;
}

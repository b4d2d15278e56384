/* torch.fx eliminate_dead_code: one reverse sweep removes whole dead chains.
 * Impure nodes stay: placeholders, output, and ops flagged side-effect (air
 * stream/event ops, ops that write an argument) — torch 1.13 lacks the
 * latter and deletes unused in-place ops and stream markers. */
#include "ir/ir.h"
#include "ops/ops.h"

static bool is_impure(const airc_node *n)
{
    switch (n->kind) {
    case AIRC_NODE_PLACEHOLDER:
    case AIRC_NODE_OUTPUT:
        return true;
    case AIRC_NODE_CALL_FUNCTION:
        return (n->op->flags & AIRC_OP_SIDE_EFFECT) != 0;
    default:
        return false;
    }
}

airc_status airc_graph_eliminate_dead_code(airc_graph *g, int32_t *changed)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_eliminate_dead_code"));
    bool any = false;
    for (airc_node *n = g->root.prev, *prev; n != &g->root; n = prev) {
        prev = n->prev;
        if (!is_impure(n) && n->nusers == 0) {
            AIRC_TRY(airc_graph_erase_node(g, n)); /* cannot fail: no users */
            any = true;
        }
    }
    if (changed)
        *changed = any;
    return AIRC_OK;
}

/* airc_graph_swap: exchanges what two graph handles hold, so that a pass
 * manager can put a graph back exactly as it was (from a clone taken before
 * the pass) inside the caller's handle, which the caller and the pass
 * itself may still hold.
 *
 * Everything that points back at a handle is fixed: the root sentinel's
 * links, every node's graph pointer (erased ones too: airc_check_node reads
 * it), every value's owner, and the submodules' parent. The handles' own
 * parent links stay with the handles: a graph does not change its place in
 * a module tree by swapping contents. */
#include "ir/ir.h"

#include <string.h>

static void fix_value(const airc_value *cv, const airc_graph *from, const airc_graph *to)
{
    /* owner is updated before descending, so a value shared by several
     * nodes or lists is walked once */
    airc_value *v = (airc_value *)cv;
    if (!v || v->owner != from)
        return;
    v->owner = to;
    if (v->kind == AIRC_VALUE_LIST || v->kind == AIRC_VALUE_TUPLE)
        for (uint32_t i = 0; i < v->len; i++)
            fix_value(v->u.items[i], from, to);
}

static void fix_node(airc_node *n, airc_graph *from, airc_graph *to)
{
    n->graph = to;
    for (uint32_t i = 0; i < n->nargs; i++)
        fix_value(n->args[i], from, to);
    for (uint32_t i = 0; i < n->nkw; i++)
        fix_value(n->kw_values[i], from, to);
    for (size_t i = 0; i < n->nattrs; i++)
        fix_value(n->attr_values[i], from, to);
}

/* g now holds what `from` held. */
static void fix_content(airc_graph *g, airc_graph *from)
{
    airc_node *root = &g->root;
    root->graph = g;
    if (root->next == &from->root) { /* empty list */
        root->next = root->prev = root;
    } else {
        root->next->prev = root;
        root->prev->next = root;
    }
    AIRC_FOR_EACH_NODE(g, n)
        fix_node(n, from, g);
    for (size_t i = 0; i < g->nerased; i++)
        fix_node(g->erased[i], from, g);
    for (size_t i = 0; i < g->nsubs; i++)
        g->subs[i]->parent = g;
    /* names of erased source nodes map to the handle's own name_tomb,
     * which stays with the handle: repoint them, or they dangle once
     * `from` is destroyed */
    for (size_t i = 0; i < g->ns.used.cap; i++)
        if (g->ns.used.slots[i].value == &from->name_tomb)
            g->ns.used.slots[i].value = &g->name_tomb;
}

void airc_graph_swap(airc_graph *a, airc_graph *b)
{
    if (a == b)
        return;
    airc_graph *pa = a->parent, *pb = b->parent;
    airc_graph tmp;
    memcpy(&tmp, a, sizeof tmp);
    memcpy(a, b, sizeof tmp);
    memcpy(b, &tmp, sizeof tmp);
    a->parent = pa;
    b->parent = pb;
    /* the sentinel's links still point at the other handle's root until
     * fixed: fix_content tests them against `from`'s root address */
    fix_content(a, b);
    fix_content(b, a);
}

/* airc_graph_inline_submodules: backends inline nested graphs (the
 * partitioner's fused partitions) before lowering. */
#include "transform/partition_internal.h"
#include "ops/ops.h"

#include <string.h>

typedef struct inline_map {
    airc_node **by_id; /* nested graph node id -> node of the parent */
} inline_map;

static airc_node *map_fn(void *user, airc_node *old)
{
    return ((inline_map *)user)->by_id[old->id];
}

/* The nested graph's result: one node, or a tuple/list of nodes. */
static airc_status result_of(const airc_graph *sub, const char *name, const airc_value **res)
{
    airc_node *out = airc_graph_output_node(sub);
    if (!out || out->nargs != 1)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "airc_graph_inline_submodules: submodule '%s' has no output", name);
    const airc_value *v = out->args[0];
    if (v->kind == AIRC_VALUE_TUPLE || v->kind == AIRC_VALUE_LIST) {
        for (uint32_t i = 0; i < v->len; i++)
            if (v->u.items[i]->kind != AIRC_VALUE_NODE)
                return airc_fail(AIRC_E_UNSUPPORTED,
                                 "airc_graph_inline_submodules: submodule '%s' returns a "
                                 "non-node item %u",
                                 name, i);
    } else if (v->kind != AIRC_VALUE_NODE) {
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "airc_graph_inline_submodules: submodule '%s' returns a literal", name);
    }
    *res = v;
    return AIRC_OK;
}

/* Everything that could refuse is checked here, before any edit. */
static airc_status check_call(airc_graph *g, airc_node *c, airc_graph *sub, const airc_value *res,
                              const airc_op *getitem)
{
    size_t nph = 0;
    AIRC_FOR_EACH_NODE(sub, n) {
        if (n->kind == AIRC_NODE_PLACEHOLDER)
            nph++;
        else if (n->kind == AIRC_NODE_GET_ATTR &&
                 airc_graph_get_constant(g, n->target, NULL, NULL, NULL, NULL, NULL) != AIRC_OK)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "airc_graph_inline_submodules: '%s' reads constant '%s' that the "
                             "parent graph lacks",
                             c->name, n->target);
    }
    if (c->nkw)
        return airc_fail(AIRC_E_UNSUPPORTED,
                         "airc_graph_inline_submodules: '%s' has keyword arguments", c->name);
    if (nph != c->nargs)
        return airc_fail(AIRC_E_INVALID_GRAPH,
                         "airc_graph_inline_submodules: '%s' passes %u arguments to '%s', which "
                         "has %zu placeholders",
                         c->name, c->nargs, c->target, nph);
    for (uint32_t i = 0; i < c->nargs; i++)
        if (c->args[i]->kind != AIRC_VALUE_NODE)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "airc_graph_inline_submodules: argument %u of '%s' is not a node", i,
                             c->name);
    if (res->kind == AIRC_VALUE_NODE)
        return AIRC_OK;
    for (size_t k = 0; k < c->nusers; k++) {
        airc_node *u = c->users[k];
        int64_t idx = -1;
        if (u->kind != AIRC_NODE_CALL_FUNCTION || u->op != getitem || u->nargs != 2 ||
            u->nkw || u->args[1]->kind != AIRC_VALUE_INT || (idx = u->args[1]->u.i) < 0 ||
            idx >= (int64_t)res->len)
            return airc_fail(AIRC_E_UNSUPPORTED,
                             "airc_graph_inline_submodules: '%s' uses the tuple result of '%s' "
                             "other than through getitem with an index in range",
                             u->name, c->name);
    }
    return AIRC_OK;
}

/* Moves the run of nodes first..last (linked at the end of g) to just
 * before c, with labels in between (one global relabel when the gap is too
 * small). Inserting node by node before c would halve the same gap each
 * time and relabel the whole graph every few dozen nodes. */
static void splice_before(airc_graph *g, airc_node *first, airc_node *last, airc_node *c)
{
    airc_node *before = first->prev;
    before->next = &g->root;
    g->root.prev = before;
    airc_node *p = c->prev;
    p->next = first;
    first->prev = p;
    last->next = c;
    c->prev = last;
    size_t k = 0;
    for (airc_node *n = first; n != c; n = n->next)
        k++;
    uint64_t lo = p == &g->root ? 0 : p->order, hi = c->order;
    if (hi - lo > k + 1) {
        uint64_t step = (hi - lo) / (k + 1), o = lo;
        for (airc_node *n = first; n != c; n = n->next)
            n->order = (o += step);
        return;
    }
    uint64_t o = 0;
    AIRC_FOR_EACH_NODE(g, n)
        n->order = (o += UINT64_C(1) << 32);
}

static airc_status inline_call(airc_graph *g, airc_node *c, airc_graph *sub, const airc_value *res,
                               const airc_op *getitem)
{
    airc_context *ctx = g->ctx;
    inline_map m = {airc_calloc(ctx, sub->next_id ? sub->next_id : 1, sizeof(airc_node *))};
    if (!m.by_id)
        return airc_fail_oom("inline map");
    airc_status st = check_call(g, c, sub, res, getitem);
    int32_t where;
    airc_node *anchor;
    airc_graph_get_insert_point(g, &where, &anchor);
    if (st == AIRC_OK)
        st = airc_graph_set_insert_point(g, AIRC_INSERT_END, NULL);
    airc_node *tail = g->root.prev;
    uint32_t ph = 0;
    AIRC_FOR_EACH_NODE(sub, n) {
        if (st != AIRC_OK)
            break;
        if (n->kind == AIRC_NODE_PLACEHOLDER)
            m.by_id[n->id] = c->args[ph++]->u.node;
        else if (n->kind != AIRC_NODE_OUTPUT)
            st = airc_fuse_copy_node(g, n, map_fn, &m, &m.by_id[n->id]);
    }
    if (tail->next != &g->root) /* copies were made (even if one failed) */
        splice_before(g, tail->next, g->root.prev, c);
    if (st == AIRC_OK && res->kind == AIRC_VALUE_NODE) {
        st = airc_node_replace_all_uses_with(c, m.by_id[res->u.node->id], NULL, NULL, NULL);
    } else {
        /* each getitem(c, i) reads output i; users shrink as they go */
        while (st == AIRC_OK && c->nusers) {
            airc_node *u = c->users[c->nusers - 1];
            airc_node *r = m.by_id[res->u.items[u->args[1]->u.i]->u.node->id];
            if ((st = airc_node_replace_all_uses_with(u, r, NULL, NULL, NULL)) == AIRC_OK)
                st = airc_graph_erase_node(g, u);
        }
    }
    if (st == AIRC_OK)
        st = airc_graph_erase_node(g, c);
    if (anchor && !anchor->erased)
        airc_graph_set_insert_point(g, where, anchor);
    else
        airc_graph_set_insert_point(g, AIRC_INSERT_END, NULL);
    airc_free(ctx, m.by_id);
    return st;
}

airc_status airc_graph_inline_submodules(airc_graph *g, size_t *num_inlined)
{
    AIRC_TRY(airc_check_graph(g, "airc_graph_inline_submodules"));
    airc_context *ctx = g->ctx;
    const airc_op *getitem;
    AIRC_TRY(airc_context_find_op(ctx, AIRC_OP_GETITEM, &getitem));
    /* nested graphs first (depth is the nesting depth, not the size) */
    for (size_t i = 0; i < g->nsubs; i++)
        AIRC_TRY(airc_graph_inline_submodules(g->subs[i], NULL));
    size_t ncalls = 0, cap = 0, done = 0;
    airc_node **calls = NULL;
    AIRC_FOR_EACH_NODE(g, n) {
        if (n->kind != AIRC_NODE_CALL_MODULE)
            continue;
        if (!airc_grow(ctx, (void **)&calls, &cap, ncalls + 1, sizeof *calls)) {
            airc_free(ctx, calls);
            return airc_fail_oom("inline call list");
        }
        calls[ncalls++] = n;
    }
    /* submodule name -> index + 1 */
    airc_strmap idx;
    airc_strmap_init(&idx, ctx);
    uint8_t *called = airc_calloc(ctx, g->nsubs ? g->nsubs : 1, 1);
    airc_status st = called && airc_strmap_reserve(&idx, g->nsubs)
                         ? AIRC_OK
                         : airc_fail_oom("inline submodule index");
    for (size_t k = 0; k < g->nsubs && st == AIRC_OK; k++)
        airc_strmap_put(&idx, g->sub_names[k], (void *)(uintptr_t)(k + 1));
    for (size_t i = 0; i < ncalls && st == AIRC_OK; i++) {
        airc_node *c = calls[i];
        uintptr_t k = (uintptr_t)airc_strmap_get(&idx, c->target);
        airc_graph *sub = k ? g->subs[k - 1] : NULL;
        const airc_value *res = NULL;
        if (!sub)
            st = airc_fail(AIRC_E_INVALID_GRAPH,
                           "airc_graph_inline_submodules: '%s' calls unknown submodule '%s'",
                           c->name, c->target);
        else
            called[k - 1] = 1;
        if (st == AIRC_OK)
            st = result_of(sub, c->target, &res);
        if (st == AIRC_OK)
            st = inline_call(g, c, sub, res, getitem);
        if (st == AIRC_OK)
            done++;
    }
    /* drop the submodules that were called and are no longer (every call
     * of them was inlined unless a failure stopped us early) */
    if (st == AIRC_OK) {
        AIRC_FOR_EACH_NODE(g, n) {
            uintptr_t k = n->kind == AIRC_NODE_CALL_MODULE
                              ? (uintptr_t)airc_strmap_get(&idx, n->target)
                              : 0;
            if (k)
                called[k - 1] = 0;
        }
        airc_graph_drop_submodules(g, called);
    }
    airc_strmap_free(&idx);
    airc_free(ctx, called);
    airc_free(ctx, calls);
    if (st == AIRC_OK && num_inlined)
        *num_inlined = done;
    return st;
}
